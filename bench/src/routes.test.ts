import { classYearsAt } from "@quad/contracts";
import { createTestApp, type TestApp } from "@quad/server/test/app";
import { bearer, proveSchoolEmail, signIn, testPhone } from "@quad/server/test/auth";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { registerBenchRoutes } from "./routes";

const paths = [
  "/api/bench/select1",
  "/api/bench/caller/select1",
  "/api/bench/trpc/select1",
  "/api/bench/trpc-adapter/select1",
];

describe("bench ceiling routes", () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  it("answer SELECT 1 over plain Fastify, createCaller, the tRPC endpoint and the official adapter, added as a plugin", async () => {
    t = await createTestApp({ plugins: [registerBenchRoutes] });
    for (const url of paths) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      const body = res.json();
      expect(url.includes("/trpc") ? body.result.data : body, url).toEqual({ ok: true });
    }
  });

  it("are not the app's: it alone serves none of them", async () => {
    t = await createTestApp();
    for (const url of [...paths, ...Object.keys(alone)])
      expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(404);
  });
});

/** Each read's service alone in a plain route, and the app's route it stands beside. */
const alone = {
  "/api/bench/alone/users-me": "/api/users/me",
  "/api/bench/alone/votes?page=1&limit=10": "/api/votes/for-user?page=1&limit=10",
  "/api/bench/alone/votes?page=2&limit=3": "/api/votes/for-user?page=2&limit=3",
};

describe("bench routes with a read's service alone", () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  it("answer what the app's routes answer the same student, and nothing without a token", async () => {
    t = await createTestApp({ plugins: [registerBenchRoutes] });
    const app = t.app;
    const phone = testPhone();
    const tokens = await signIn(app, phone);
    const [school] = (await app.inject({ method: "GET", url: "/api/schools" })).json() as {
      id: number;
      emailDomains: string[];
    }[];
    const profile = {
      firstName: "Avery",
      university: school!.id,
      graduationYear: classYearsAt(new Date())[0],
      gender: "female",
    };
    const saved = await app.inject({
      method: "POST",
      url: "/api/trpc/users.update",
      headers: bearer(tokens),
      payload: profile,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // Only a proved member (a verified profile, which takes a processed photo) opens the inbox:
    // the photo's key set here rather than uploaded, which is the app's own tests' business.
    await t.deps.db.execute(sql`update users set instagram_handle = 'avery.ig', photo_key = 'photos/avery.webp',
      is_verified = true where phone = ${phone}`);
    await proveSchoolEmail(app, bearer(tokens), `avery@${school!.emailDomains[0]}`);
    for (const [url, appUrl] of Object.entries(alone)) {
      const own = await app.inject({ method: "GET", url, headers: bearer(tokens) });
      const apps = await app.inject({ method: "GET", url: appUrl, headers: bearer(tokens) });
      expect(own.statusCode, url).toBe(apps.statusCode);
      expect(own.json(), url).toEqual(apps.json());
      expect((await app.inject({ method: "GET", url })).statusCode, url).toBe(401);
    }
  });
});

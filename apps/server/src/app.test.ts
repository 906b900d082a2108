import { routeList, SchoolList, streamRouteList } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWebDist } from "./test/web-dist";
import { TRPC_MAX_BATCH_SIZE } from "./app";
import { createTestApp, type TestApp } from "./test/app";

let t: TestApp;
let web: Awaited<ReturnType<typeof createTestWebDist>>;

beforeAll(async () => {
  web = await createTestWebDist();
  t = await createTestApp({ webDistDir: web.dir });
});
afterAll(async () => {
  await t?.close();
  await web?.remove();
});

describe("health", () => {
  it("answers when the database does", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", database: t.deps.dbKind });
  });
});

describe("schools", () => {
  it("lists the seeded schools over REST, each with a generated icon", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/schools" });
    expect(res.statusCode).toBe(200);
    const schools = SchoolList.parse(res.json());
    expect(schools.length).toBeGreaterThanOrEqual(20);
    for (const school of schools) expect(school.icon).toMatch(/^data:image\/svg\+xml/);
    const names = schools.map((s) => s.schoolName);
    expect([...names].sort((a, b) => a.localeCompare(b))).toEqual(names);
  });

  it("answers the same over tRPC", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/trpc/schools.list" });
    expect(res.statusCode).toBe(200);
    const rest = await t.app.inject({ method: "GET", url: "/api/schools" });
    expect(res.json().result.data).toEqual(rest.json());
  });
});

describe("tRPC endpoint", () => {
  it("refuses a batch larger than the cap", async () => {
    const paths = Array.from({ length: TRPC_MAX_BATCH_SIZE + 1 }, () => "health.status").join(",");
    const res = await t.app.inject({ method: "GET", url: `/api/trpc/${paths}?batch=1` });
    expect(res.statusCode).toBe(400);
    const ok = await t.app.inject({ method: "GET", url: `/api/trpc/health.status,health.status?batch=1` });
    expect(ok.statusCode).toBe(200);
  });

  it("answers an unknown procedure with 404 and no stack", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/trpc/nope.nothing" });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain("stack");
    expect(res.body).not.toContain("node_modules");
  });

  it("answers malformed input with 400, not 500", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/trpc/health.status",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe("OpenAPI document", () => {
  it("describes the mounted routes and only those", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/schools"].get.operationId).toBe("schools.list");
    expect(doc.paths["/api/health"].get).toBeDefined();
    // Every documented route answers (bad input is a 4xx, never a 404 or 500).
    for (const [url, operations] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(operations)) {
        const res2 = await t.app.inject({ method: method.toUpperCase() as "GET", url });
        expect(res2.statusCode, `${method} ${url}`).not.toBe(404);
        expect(res2.statusCode, `${method} ${url}`).toBeLessThan(500);
      }
    }
    // Every route of the contracts table is built and documented (absent routes are tested in rest/adapter.test.ts).
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([url, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${url}`),
    );
    expect(documented.sort()).toEqual(
      [...routeList, ...streamRouteList].map((route) => `${route.method} /api${route.path}`).sort(),
    );
  });
});

describe("bad requests are 4xx JSON, never 500", () => {
  it("answers an unknown API route with a JSON 404", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/no/such/route" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("answers malformed JSON with 400", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/health",
      headers: { "content-type": "application/json" },
      payload: "{oops",
    });
    expect([400, 404]).toContain(res.statusCode);
    expect(res.json().code).toBeDefined();
  });

  it("answers an oversized body with 413", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/trpc/health.status",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ big: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });

  it("answers an unsupported content type with 415", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/trpc/health.status",
      headers: { "content-type": "application/x-something" },
      payload: "hello",
    });
    expect(res.statusCode).toBe(415);
  });
});

describe("the web app", () => {
  it("is served at / and for deep links (history fallback)", async () => {
    for (const url of ["/", "/home", "/signup", "/terms?x=1"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain("<title>Quad</title>");
      expect(res.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("serves hashed assets with long cache headers", async () => {
    const res = await t.app.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toContain("immutable");
  });

  it("never answers an API path with the page", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/whatever" });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain("<title>");
  });

  it("does not serve files outside the build", async () => {
    const res = await t.app.inject({ method: "GET", url: "/..%2f..%2fetc%2fpasswd" });
    expect(res.body).not.toContain("root:");
  });
});

describe("media", () => {
  it("serves stored files with long cache headers", async () => {
    await t.deps.media.put("test/pixel.png", Buffer.from("89504e47", "hex"), "image/png");
    const res = await t.app.inject({ method: "GET", url: "/api/media/test/pixel.png" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers["cache-control"]).toContain("max-age=31536000");
  });

  it("refuses keys that climb out of the media folder", async () => {
    for (const url of [
      "/api/media/..%2F..%2Fetc%2Fpasswd",
      "/api/media/a/..%2f..%2f..%2fetc%2fpasswd",
      "/api/media/missing.jpg",
    ]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
    }
    // A literal ../ is resolved by the HTTP layer before routing: it lands outside /api/media.
    const dotted = await t.app.inject({ method: "GET", url: "/api/media/../../etc/passwd" });
    expect(dotted.body).not.toContain("root:");
  });
});

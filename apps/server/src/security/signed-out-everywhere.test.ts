import { routeList, type AuthTokens } from "@quad/contracts";
import type { AnyTRPCProcedure } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { appRouter } from "../trpc/root";
import { createTestApp, type TestApp } from "../test/app";
import { multipartBody, portraitJpeg } from "../test/images";
import { campus, sessionFor } from "../test/voters";

/**
 * A signed-out token fails everywhere, not only on the routes the sign-out
 * tests read: every route of the table that needs a session (REST, the
 * multipart upload with a real photo included) and every tRPC procedure
 * behind a session, moderators' ones too. The victim is a moderator so that
 * the admin procedures would answer 200 to a live token.
 */
let t: TestApp;
let photo: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  photo = await portraitJpeg([200, 40, 40], [240, 160, 40], [60, 20, 10]);
});
afterAll(() => t?.close());

const auth = (tokens: { token: string }) => ({ authorization: `Bearer ${tokens.token}` });
const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;
const sessionProcedures = [
  ...new Set([
    ...routeList.filter((r) => r.auth && !r.devOnly).map((r) => r.procedure),
    ...Object.keys(procedures).filter((p) => p.startsWith("admin.")),
  ]),
];

/** Every session route and procedure with the token; answers the ones that did not say 401. */
async function notRefused(tokens: { token: string }): Promise<string[]> {
  const leaks: string[] = [];
  for (const route of routeList.filter((r) => r.auth && !r.devOnly)) {
    const url = `/api${route.path}`;
    let res;
    if (route.multipart) {
      const body = multipartBody({ firstName: "Ghost" }, { name: "me.jpg", type: "image/jpeg", data: photo });
      res = await t.app.inject({
        method: route.method,
        url,
        headers: { ...body.headers, ...auth(tokens) },
        payload: body.payload,
      });
    } else {
      res = await t.app.inject({
        method: route.method,
        url,
        headers: auth(tokens),
        ...(route.method === "GET" ? {} : { payload: {} }),
      });
    }
    if (res.statusCode !== 401) leaks.push(`REST ${route.method} ${url}: ${res.statusCode}`);
  }
  for (const path of sessionProcedures) {
    const type = procedures[path]!._def.type;
    const res =
      type === "query"
        ? await t.app.inject({ method: "GET", url: `/api/trpc/${path}`, headers: auth(tokens) })
        : await t.app.inject({ method: "POST", url: `/api/trpc/${path}`, headers: auth(tokens), payload: {} });
    if (res.statusCode !== 401) leaks.push(`tRPC ${path}: ${res.statusCode}`);
  }
  return leaks;
}

/** A verified moderator with a live session, checked to work first. */
async function moderator() {
  const c = await campus(t);
  await grantAdmin(t.deps.db, c.me.phone);
  for (const url of ["/api/users/me", "/api/trpc/admin.reviewQueue"]) {
    expect((await t.app.inject({ method: "GET", url, headers: c.headers })).statusCode, url).toBe(200);
  }
  return c;
}

describe("a signed-out token is refused by every session route, REST and tRPC", () => {
  it("(the sweep has teeth: a live moderator's token is refused by none)", async () => {
    const c = await moderator();
    const expected = routeList.filter((r) => r.auth && !r.devOnly).length + sessionProcedures.length;
    expect((await notRefused(c.tokens)).length).toBe(expected);
  });

  it("after logout", async () => {
    const c = await moderator();
    await t.app.inject({ method: "POST", url: "/api/auth/logout", payload: { refreshToken: c.tokens.refreshToken } });
    expect(await notRefused(c.tokens)).toEqual([]);
  });

  it("after refresh-token reuse (the rotated token and the new one)", async () => {
    const c = await moderator();
    const next = (
      await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken: c.tokens.refreshToken } })
    ).json() as AuthTokens;
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/trpc/auth.refresh",
          payload: { refreshToken: c.tokens.refreshToken },
        })
      ).statusCode,
    ).toBe(401);
    expect(await notRefused(c.tokens)).toEqual([]);
    expect(await notRefused(next)).toEqual([]);
    // The newest refresh token of the family is dead too.
    expect(
      (await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken: next.refreshToken } }))
        .statusCode,
    ).toBe(401);
  });

  it("after account deletion (every session of the phone)", async () => {
    const c = await moderator();
    const other = await sessionFor(t, c.me.phone);
    const deleted = await t.app.inject({
      method: "POST",
      url: "/api/trpc/account.delete",
      headers: c.headers,
      payload: { confirm: "DELETE" },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await notRefused(c.tokens)).toEqual([]);
    expect(await notRefused(other)).toEqual([]);
    expect(
      (await t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken: other.refreshToken } }))
        .statusCode,
    ).toBe(401);
  });

  it("after a moderator removed the profile", async () => {
    const victim = await moderator();
    const admin = await moderator();
    const removed = await t.app.inject({
      method: "POST",
      url: "/api/trpc/admin.removeProfile",
      headers: admin.headers,
      payload: { userId: victim.me.id },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await notRefused(victim.tokens)).toEqual([]);
  });
});

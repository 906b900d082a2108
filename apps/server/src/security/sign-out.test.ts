import type { AuthTokens } from "@quad/contracts";
import { users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionRevocations } from "../modules/auth/revocations";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { signIn, testPhone } from "../test/auth";
import { campus, sessionFor } from "../test/voters";

/**
 * Signing out is immediate (decision 0011): after logout, refresh-token
 * reuse, account deletion or a moderator's removal, the session's access
 * tokens are refused on their next request — over REST and tRPC — and a
 * token of a deleted account never creates a profile again.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const auth = (tokens: { token: string }) => ({ authorization: `Bearer ${tokens.token}` });

/** GET /users/me over REST and over tRPC: the two status codes. */
async function meStatuses(app: TestApp["app"], tokens: { token: string }): Promise<[number, number]> {
  const rest = await app.inject({ method: "GET", url: "/api/users/me", headers: auth(tokens) });
  const trpc = await app.inject({ method: "GET", url: "/api/trpc/users.me", headers: auth(tokens) });
  return [rest.statusCode, trpc.statusCode];
}

const refresh = (tokens: AuthTokens) =>
  t.app.inject({ method: "POST", url: "/api/auth/refresh", payload: { refreshToken: tokens.refreshToken } });
const logout = (tokens: AuthTokens) =>
  t.app.inject({ method: "POST", url: "/api/auth/logout", payload: { refreshToken: tokens.refreshToken } });

/** Both ways of creating a profile (REST's PATCH and the tRPC mutation); answers their status codes. */
async function tryToCreateProfile(app: TestApp["app"], tokens: { token: string }): Promise<[number, number]> {
  const rest = await app.inject({
    method: "PATCH",
    url: "/api/users/update",
    headers: auth(tokens),
    payload: { firstName: "Ghost" },
  });
  const trpc = await app.inject({
    method: "POST",
    url: "/api/trpc/users.update",
    headers: auth(tokens),
    payload: { firstName: "Ghost" },
  });
  return [rest.statusCode, trpc.statusCode];
}
const profileOf = async (db: TestApp["deps"]["db"], phone: string) =>
  (await db.select().from(users).where(eq(users.phone, phone)))[0];

describe("signing out is immediate", () => {
  it("logout: the session's access token is refused on the next request, REST and tRPC", async () => {
    const c = await campus(t);
    expect(await meStatuses(t.app, c.tokens)).toEqual([200, 200]);
    expect((await logout(c.tokens)).statusCode).toBe(200);
    expect(await meStatuses(t.app, c.tokens)).toEqual([401, 401]);
  });

  it("logout ends only that session: another device of the same student keeps working", async () => {
    const c = await campus(t);
    const other = await sessionFor(t, c.me.phone);
    await logout(c.tokens);
    expect(await meStatuses(t.app, other)).toEqual([200, 200]);
  });

  it("a normal refresh signs no one out: the old and the new access token both keep working", async () => {
    const c = await campus(t);
    const res = await refresh(c.tokens);
    expect(res.statusCode).toBe(200);
    const next = res.json() as AuthTokens;
    expect(await meStatuses(t.app, next)).toEqual([200, 200]);
    expect(await meStatuses(t.app, c.tokens)).toEqual([200, 200]);
    const third = (await refresh(next)).json() as AuthTokens;
    expect(await meStatuses(t.app, third)).toEqual([200, 200]);
  });

  it("refresh-token reuse: every access token of the family is refused", async () => {
    const c = await campus(t);
    const next = (await refresh(c.tokens)).json() as AuthTokens;
    expect(await meStatuses(t.app, next)).toEqual([200, 200]);
    // The stolen, already rotated refresh token is presented again.
    expect((await refresh(c.tokens)).statusCode).toBe(401);
    expect(await meStatuses(t.app, next)).toEqual([401, 401]);
    expect(await meStatuses(t.app, c.tokens)).toEqual([401, 401]);
  });

  it("account deletion: the old token is refused and cannot create the profile again", async () => {
    const c = await campus(t);
    const other = await sessionFor(t, c.me.phone);
    const deleted = await t.app.inject({
      method: "POST",
      url: "/api/users/delete-account",
      headers: c.headers,
      payload: { confirm: "DELETE" },
    });
    expect(deleted.statusCode).toBe(200);
    for (const tokens of [c.tokens, other]) {
      expect(await meStatuses(t.app, tokens)).toEqual([401, 401]);
      expect(await tryToCreateProfile(t.app, tokens)).toEqual([401, 401]);
    }
    expect(await profileOf(t.deps.db, c.me.phone)).toBeUndefined();
  });

  it("after deletion the phone may sign in again and create a new profile", async () => {
    const phone = testPhone();
    const first = await signIn(t.app, phone, "10.9.0.1");
    expect((await tryToCreateProfile(t.app, first))[0]).toBe(200);
    await t.app.inject({
      method: "POST",
      url: "/api/users/delete-account",
      headers: auth(first),
      payload: { confirm: "DELETE" },
    });
    const again = await signIn(t.app, phone, "10.9.0.2");
    expect(await tryToCreateProfile(t.app, again)).toEqual([200, 200]);
    expect((await profileOf(t.deps.db, phone))?.firstName).toBe("Ghost");
    expect(await tryToCreateProfile(t.app, first)).toEqual([401, 401]);
  });

  it("moderator removal: the removed student's token is refused and cannot create the profile again", async () => {
    const c = await campus(t);
    const adminUser = await c.student({ gender: "male" });
    await grantAdmin(t.deps.db, adminUser.phone);
    const admin = auth(await sessionFor(t, adminUser.phone));
    const target = await c.student({ firstName: "Removed" });
    const targetTokens = await sessionFor(t, target.phone);
    expect(await meStatuses(t.app, targetTokens)).toEqual([200, 200]);
    const removed = await t.app.inject({
      method: "POST",
      url: "/api/trpc/admin.removeProfile",
      headers: admin,
      payload: { userId: target.id },
    });
    expect(removed.statusCode).toBe(200);
    expect(await meStatuses(t.app, targetTokens)).toEqual([401, 401]);
    expect(await tryToCreateProfile(t.app, targetTokens)).toEqual([401, 401]);
    expect(await profileOf(t.deps.db, target.phone)).toBeUndefined();
  });
});

describe("a process that missed the sign-out", () => {
  // Its memory of revocations never hears anything: only the database can refuse.
  let deaf: TestApp;
  beforeAll(async () => {
    const neverHears: SessionRevocations = {
      isRevoked: () => false,
      heard: () => {},
      reload: async () => {},
      close: async () => {},
    };
    deaf = await createTestApp({ sessionRevocations: neverHears });
  });
  afterAll(() => deaf?.close());

  it("cannot let a deleted account's token create the profile again (REST and tRPC)", async () => {
    const c = await campus(deaf);
    await deaf.app.inject({
      method: "POST",
      url: "/api/users/delete-account",
      headers: c.headers,
      payload: { confirm: "DELETE" },
    });
    expect(await tryToCreateProfile(deaf.app, c.tokens)).toEqual([401, 401]);
    expect(await profileOf(deaf.deps.db, c.me.phone)).toBeUndefined();
  });

  it("cannot let a signed-out family's token create a profile", async () => {
    const phone = testPhone();
    const tokens = await sessionFor(deaf, phone);
    await deaf.app.inject({ method: "POST", url: "/api/auth/logout", payload: { refreshToken: tokens.refreshToken } });
    expect(await tryToCreateProfile(deaf.app, tokens)).toEqual([401, 401]);
    expect(await profileOf(deaf.deps.db, phone)).toBeUndefined();
  });
});

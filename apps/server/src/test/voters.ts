import type { AuthTokens } from "@quad/contracts";
import { insertTestSchool, insertTestUser, type TestUserOverrides } from "@quad/db/testing";
import type { User } from "@quad/db/schema";
import { grantAdmin } from "../modules/admin/service";
import { startSession } from "../modules/auth/sessions";
import type { TestApp } from "./app";

/** A session for an existing phone without the SMS round trip (which is tested on its own). */
export function sessionFor(t: TestApp, phone: string): Promise<AuthTokens> {
  return startSession({ db: t.deps.db, now: t.deps.now, secret: t.deps.jwtSecret }, phone);
}

/** A school with a verified voter signed in, and a factory for its other students. */
export async function campus(t: TestApp, voter: Partial<TestUserOverrides> = {}) {
  const school = await insertTestSchool(t.deps.db);
  const student = (overrides: Partial<TestUserOverrides> = {}): Promise<User> =>
    insertTestUser(t.deps.db, { schoolId: school.id, showInPreview: true, ...overrides });
  const me = await student({ gender: "male", preference: "female", firstName: "Voter", ...voter });
  const tokens = await sessionFor(t, me.phone);
  t.deps.candidatePool.invalidate();
  return { school, me, tokens, student, headers: { authorization: `Bearer ${tokens.token}` } };
}

/**
 * A school that just launched (the voter signed up an hour ago, so every report weighs nothing) and a
 * moderator of it, with the moderator's headers: for the tests of urgent reports.
 */
export async function newSchoolWithModerator(t: TestApp) {
  const c = await campus(t, { createdAt: new Date(Date.now() - 3_600_000) });
  const moderator = await c.student({ gender: "male" });
  await grantAdmin(t.deps.db, moderator.phone);
  const admin = { authorization: `Bearer ${(await sessionFor(t, moderator.phone)).token}` };
  return { c, admin };
}

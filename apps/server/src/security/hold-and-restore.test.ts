import { REPORTER_WEIGHT, REPORTS_TO_HOLD } from "@quad/contracts";
import { users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { campus, sessionFor } from "../test/voters";

/**
 * A student's own pause survives a moderator's review. The attack (by
 * three established students who were shown the victim): a student paused
 * their profile ("don't show me"); the three report them, the reports hold
 * the profile, a moderator looks and restores it — and the restore used to
 * clear the pause with the hold, putting the student back into everyone's
 * rounds against their own choice. Over REST and tRPC.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const headersOf = async (phone: string): Promise<Headers> => ({
  authorization: `Bearer ${(await sessionFor(t, phone)).token}`,
});
const ESTABLISHED = new Date(Date.now() - (REPORTER_WEIGHT.youngAccountDays + 30) * 24 * 60 * 60 * 1000);

async function me(via: "rest" | "trpc", headers: Headers): Promise<{ paused: boolean; heldForReview: boolean }> {
  if (via === "rest") return (await t.app.inject({ method: "GET", url: "/api/users/me", headers })).json();
  return (await t.app.inject({ method: "GET", url: "/api/trpc/users.me", headers })).json().result.data;
}

/** Reports the victim until held, then a moderator restores them; answers the victim's headers. */
async function holdAndRestore(via: "rest" | "trpc", pauseFirst: boolean) {
  const c = await campus(t, { gender: "male", preference: "female" });
  await grantAdmin(t.deps.db, c.me.phone);
  const victim = await c.student({ gender: "female", preference: "male" });
  const filler = await c.student({ gender: "female", preference: "male" });
  const victimHeaders = await headersOf(victim.phone);
  if (pauseFirst) {
    const paused = await t.app.inject({
      method: "POST",
      url: via === "rest" ? "/api/users/pause" : "/api/trpc/account.pause",
      headers: victimHeaders,
      payload: { paused: true },
    });
    expect(paused.statusCode, paused.body).toBe(200);
  }
  for (let i = 0; i < REPORTS_TO_HOLD; i++) {
    const reporter = await c.student({ gender: "male", preference: "female", createdAt: ESTABLISHED });
    await showTo(t, reporter.id, victim.id, filler.id);
    const url = via === "rest" ? "/api/safety/report" : "/api/trpc/safety.report";
    const res = await t.app.inject({
      method: "POST",
      url,
      headers: await headersOf(reporter.phone),
      payload: { target: { userId: victim.id }, reason: "fake_profile" },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  expect(await me(via, victimHeaders)).toMatchObject({ paused: true, heldForReview: true });
  const restored = await t.app.inject({
    method: "POST",
    url: "/api/trpc/admin.restore",
    headers: c.headers,
    payload: { userId: victim.id },
  });
  expect(restored.statusCode, restored.body).toBe(200);
  return { victim, victimHeaders };
}

describe("a moderator's restore and the student's own pause", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`keeps a profile its owner paused before the hold paused (${via})`, async () => {
      const { victim, victimHeaders } = await holdAndRestore(via, true);
      expect(await me(via, victimHeaders)).toMatchObject({ paused: true, heldForReview: false });
      const [row] = await t.deps.db.select({ pausedAt: users.pausedAt }).from(users).where(eq(users.id, victim.id));
      expect(row!.pausedAt).not.toBeNull();
      // The owner can still resume it.
      const resumed = await t.app.inject({
        method: "POST",
        url: "/api/users/pause",
        headers: victimHeaders,
        payload: { paused: false },
      });
      expect(resumed.statusCode, resumed.body).toBe(200);
      expect(resumed.json()).toMatchObject({ paused: false });
    });

    it(`(control) shows a profile its owner never paused again (${via})`, async () => {
      const { victimHeaders } = await holdAndRestore(via, false);
      expect(await me(via, victimHeaders)).toMatchObject({ paused: false, heldForReview: false });
    });
  }

  it("keeps a pause its owner set while held", async () => {
    const c = await campus(t);
    await grantAdmin(t.deps.db, c.me.phone);
    const victim = await c.student({ gender: "female" });
    const heldAt = new Date(Date.now() - 60_000);
    await t.deps.db.update(users).set({ pausedAt: heldAt, heldForReviewAt: heldAt }).where(eq(users.id, victim.id));
    const victimHeaders = await headersOf(victim.phone);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/users/pause",
          headers: victimHeaders,
          payload: { paused: true },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/trpc/admin.restore",
          headers: c.headers,
          payload: { userId: victim.id },
        })
      ).statusCode,
    ).toBe(200);
    expect(await me("rest", victimHeaders)).toMatchObject({ paused: true, heldForReview: false });
  });
});

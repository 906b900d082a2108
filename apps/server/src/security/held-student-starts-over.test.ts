import { ERROR_MESSAGES, REPORTER_WEIGHT, REPORTS_TO_HOLD, ReviewQueue } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { campus, sessionFor } from "../test/voters";

/**
 * Deleting an account deletes every report about it (the foreign key
 * cascades) and the hold goes with the profile row. A student reported
 * "Under 18" by three established classmates is held for review; when they
 * could delete their account before any moderator looked, sign in again
 * with the same number and make a new profile, it was not held and the
 * reports were gone. Now a held student cannot delete their own account
 * until the review is done (a moderator can still remove it).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

type Headers = Record<string, string>;
const ESTABLISHED = new Date(Date.now() - (REPORTER_WEIGHT.youngAccountDays + 30) * 24 * 60 * 60 * 1000);
const headersOf = (token: string): Headers => ({ authorization: `Bearer ${token}` });

async function me(via: "rest" | "trpc", headers: Headers) {
  const res =
    via === "rest"
      ? await t.app.inject({ method: "GET", url: "/api/users/me", headers })
      : await t.app.inject({ method: "GET", url: "/api/trpc/users.me", headers });
  expect(res.statusCode, res.body).toBe(200);
  return (via === "rest" ? res.json() : res.json().result.data) as { heldForReview: boolean };
}

describe("a student held for review cannot lift the hold by deleting and re-creating the account", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`held after three Under 18 reports, deleted and signed up again with the same number (${via})`, async () => {
      const c = await campus(t);
      await grantAdmin(t.deps.db, c.me.phone);
      const queue = async () =>
        ReviewQueue.parse(
          (await t.app.inject({ method: "GET", url: "/api/trpc/admin.reviewQueue", headers: c.headers })).json().result
            .data,
        );
      const minor = await c.student({ gender: "female", preference: "male", firstName: "Minor" });
      const beside = await c.student({ gender: "female", preference: "male" });
      for (let i = 0; i < REPORTS_TO_HOLD; i++) {
        const reporter = await c.student({ gender: "male", preference: "female", createdAt: ESTABLISHED });
        await showTo(t, reporter.id, minor.id, beside.id);
        const res = await t.app.inject({
          method: "POST",
          url: via === "rest" ? "/api/safety/report" : "/api/trpc/safety.report",
          headers: headersOf((await sessionFor(t, reporter.phone)).token),
          payload: { target: { userId: minor.id }, reason: "under_18" },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      const minorHeaders = headersOf((await sessionFor(t, minor.phone)).token);
      expect(await me(via, minorHeaders)).toMatchObject({ heldForReview: true });
      const urgentBefore = (await queue()).students.filter((student) => student.urgentSince !== null).length;

      const deleted = await t.app.inject({
        method: "POST",
        url: via === "rest" ? "/api/users/delete-account" : "/api/trpc/account.delete",
        headers: minorHeaders,
        payload: { confirm: "DELETE" },
      });
      expect(deleted.statusCode, deleted.body).toBe(409);
      const refusal = deleted.json();
      expect(via === "rest" ? refusal.message : refusal.error.message).toBe(ERROR_MESSAGES.deleteWhileHeld);
      // The Under 18 reports still wait for a moderator.
      const urgentAfter = (await queue()).students.filter((student) => student.urgentSince !== null).length;
      expect(urgentAfter).toBe(urgentBefore);
    });
  }
});

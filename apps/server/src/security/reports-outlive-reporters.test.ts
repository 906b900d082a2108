import { ReviewQueue } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { campus, sessionFor } from "../test/voters";

/**
 * When reports were deleted with their reporter's account (the foreign key
 * cascaded), an "Under 18" report left the moderators' queue as soon as the
 * student who filed it deleted their account, though nobody had looked at
 * it, and the reported student was never reviewed.
 */
let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

const queue = async () =>
  ReviewQueue.parse(
    (await t.app.inject({ method: "GET", url: "/api/trpc/admin.reviewQueue", headers: admin })).json().result.data,
  );

describe("an Under 18 report outlives its reporter's account", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`filed and the reporter deletes their account over ${via}: the minor is still in the queue, among the urgent`, async () => {
      const c = await campus(t);
      const moderator = await c.student({ gender: "male" });
      await grantAdmin(t.deps.db, moderator.phone);
      admin = { authorization: `Bearer ${(await sessionFor(t, moderator.phone)).token}` };
      const minor = await c.student({ firstName: "Minor" });
      const beside = await c.student();
      await showTo(t, c.me.id, minor.id, beside.id);
      const reported = await t.app.inject({
        method: "POST",
        url: via === "rest" ? "/api/safety/report" : "/api/trpc/safety.report",
        headers: c.headers,
        payload: { target: { userId: minor.id }, reason: "under_18" },
      });
      expect(reported.statusCode, reported.body).toBe(200);
      expect((await queue()).students.find((student) => student.userId === minor.id)?.urgentSince).not.toBeNull();

      const deleted = await t.app.inject({
        method: "POST",
        url: via === "rest" ? "/api/users/delete-account" : "/api/trpc/account.delete",
        headers: c.headers,
        payload: { confirm: "DELETE" },
      });
      expect(deleted.statusCode, deleted.body).toBe(200);

      const { students } = await queue();
      const entry = students.find((student) => student.userId === minor.id);
      // Still queued, urgent, and ahead of every student without an urgent report.
      expect(entry?.urgentSince).not.toBeNull();
      const firstNotUrgent = students.findIndex((student) => student.urgentSince === null);
      if (firstNotUrgent >= 0) expect(students.indexOf(entry!)).toBeLessThan(firstNotUrgent);
      // Nobody stands behind it any more, and it weighs nothing toward a hold.
      expect(entry?.reports).toMatchObject([{ reporter: null, weight: 0, urgent: true }]);
    });
  }
});

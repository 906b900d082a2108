import { ReviewQueue } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { campus, sessionFor } from "../test/voters";

/**
 * Review attack: reports are deleted with their reporter's account (the
 * foreign key cascades), so an "Under 18" report leaves the moderators'
 * queue as soon as the student who filed it deletes their account, though
 * nobody looked at it. The reported student is never reviewed.
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
    it(`filed and the reporter deletes their account over ${via}: the minor is still at the top of the queue`, async () => {
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
      expect((await queue()).students[0]?.userId).toBe(minor.id);

      const deleted = await t.app.inject({
        method: "POST",
        url: via === "rest" ? "/api/users/delete-account" : "/api/trpc/account.delete",
        headers: c.headers,
        payload: { confirm: "DELETE" },
      });
      expect(deleted.statusCode, deleted.body).toBe(200);

      const top = (await queue()).students[0];
      expect(top?.userId).toBe(minor.id);
      expect(top?.urgentSince).not.toBeNull();
    });
  }
});

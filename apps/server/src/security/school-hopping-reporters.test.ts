import { REPORTER_WEIGHT, REPORTS_TO_HOLD, type ReviewQueue } from "@quad/contracts";
import { users } from "@quad/db/schema";
import { insertTestSchool } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { campus, sessionFor } from "../test/voters";
import { proveSchoolEmail } from "../test/auth";

/**
 * A report weighs by the reporter's time at the school, not only by the
 * account's age. The attack: keep a few accounts that are weeks old at any
 * school; when a student of another school is to be taken offline, move the
 * accounts there (the school is a profile field), get shown the student in
 * rounds, and report: three "established" reporters held the student at
 * once, and the same accounts could move on to the next school. A moved
 * account now weighs as a new one at its new school until it has been there
 * as long as an established account must exist. Over REST and tRPC.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
let clockOffsetMs = 0;
const now = () => new Date(Date.now() + clockOffsetMs);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const headersOf = async (phone: string): Promise<Headers> => ({
  authorization: `Bearer ${(await sessionFor(t, phone)).token}`,
});
const heldAt = async (id: string) =>
  (await t.deps.db.select({ held: users.heldForReviewAt }).from(users).where(eq(users.id, id)))[0]!.held;

describe("reporters who moved to the target's school", () => {
  it("weigh as new accounts there, then by their time at the school (REST and tRPC)", async () => {
    const target = await campus(t, { gender: "male", preference: "female", firstName: "Target" });
    await target.student({ gender: "male", preference: "female" }); // the other candidate of every round
    const moderator = await campus(t);
    await grantAdmin(t.deps.db, moderator.me.phone);
    const home = await insertTestSchool(t.deps.db);
    const aged = new Date(now().getTime() - 60 * DAY_MS);

    const hop = async (i: number) => {
      const puppet = await target.student({ schoolId: home.id, gender: "female", preference: "male", createdAt: aged });
      const headers = await headersOf(puppet.phone);
      const moved =
        i % 2
          ? await t.app.inject({
              method: "PATCH",
              url: "/api/users/update",
              headers,
              payload: { university: target.school.id },
            })
          : await t.app.inject({
              method: "POST",
              url: "/api/trpc/users.update",
              headers,
              payload: { university: target.school.id },
            });
      expect(moved.statusCode, moved.body).toBe(200);
      // Reporting needs membership of the new school, proved by an address there.
      await proveSchoolEmail(t.app, headers, `puppet.${puppet.id.slice(0, 8)}@${target.school.domain}`);
      return { puppet, headers };
    };
    const report = async (i: number, headers: Headers) => {
      // Shown for real: the target is one of the two students of that gender at the school.
      const round = (await t.app.inject({ method: "GET", url: "/api/prompts/random", headers })).json();
      expect(round.users, JSON.stringify(round)).toBeDefined();
      expect(round.users.map((u: { id: string }) => u.id)).toContain(target.me.id);
      const url = i % 2 ? "/api/safety/report" : "/api/trpc/safety.report";
      const res = await t.app.inject({
        method: "POST",
        url,
        headers,
        payload: { target: { userId: target.me.id }, reason: "fake_profile" },
      });
      expect(res.statusCode, res.body).toBe(200);
    };

    // Twice the hold's number of aged accounts that just moved: their reports reach the moderators and weigh nothing.
    const first = [];
    for (let i = 0; i < REPORTS_TO_HOLD * 2; i++) first.push(await hop(i));
    for (const [i, { headers }] of first.entries()) {
      await report(i, headers);
      expect(await heldAt(target.me.id), `held after ${i + 1} reports by accounts that just moved`).toBeNull();
    }
    const queue = (
      await t.app.inject({ method: "GET", url: "/api/trpc/admin.reviewQueue", headers: moderator.headers })
    ).json().result.data as ReviewQueue;
    const entry = queue.students.find((s) => s.userId === target.me.id)!;
    expect(entry.reports.map((r) => r.weight)).toEqual(first.map(() => 0));

    // Accounts that moved and then stayed as long as an established account must exist count in full.
    const later = [];
    for (let i = 0; i < REPORTS_TO_HOLD; i++) later.push(await hop(i));
    clockOffsetMs += REPORTER_WEIGHT.youngAccountDays * DAY_MS + 60_000;
    for (const [i, { puppet }] of later.entries()) await report(i, await headersOf(puppet.phone));
    expect(await heldAt(target.me.id)).not.toBeNull();
  });
});

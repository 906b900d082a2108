import { ReviewQueue } from "@quad/contracts";
import { blocks, keptUrgentReports } from "@quad/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { type campus, newSchoolWithModerator, sessionFor } from "../test/voters";

/**
 * A report (or a block) racing its target's own deletion. The target is
 * read before the report's transaction; a deletion committing in between
 * left the insert naming a user id that was gone, and the reporter got a 500
 * ("An unexpected error occurred", logged as a failure) instead of the
 * 404 any vanished student gets. Decision 0010 says a report filed meanwhile
 * is either kept with the deleted student's reports or finds no profile.
 * Two first saves after signing up again (a double tap) take the kept
 * report back once. Run on Postgres, where the requests really overlap.
 */
let t: TestApp;
let c: Awaited<ReturnType<typeof campus>>;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  ({ c, admin } = await newSchoolWithModerator(t));
}, 60_000);
afterAll(() => t?.close());

const headersOf = async (phone: string) => ({ authorization: `Bearer ${(await sessionFor(t, phone)).token}` });
const queue = async () =>
  ReviewQueue.parse(
    (await t.app.inject({ method: "GET", url: "/api/trpc/admin.reviewQueue", headers: admin })).json().result.data,
  );

async function deleteOwn(rest: boolean, phone: string) {
  return t.app.inject({
    method: "POST",
    url: rest ? "/api/users/delete-account" : "/api/trpc/account.delete",
    headers: await headersOf(phone),
    payload: { confirm: "DELETE" },
  });
}

describe("a report or a block racing its target's deletion", () => {
  it("is either kept or refused with 404, never a 500; a double first save takes it back once", async () => {
    const seen = new Set<number>();
    for (let round = 0; round < 8; round++) {
      const rest = round % 2 === 0;
      const minor = await c.student({ gender: "female", preference: "male", firstName: `Racer ${round}` });
      const reporter = await c.student();
      await showTo(t, reporter.id, minor.id, (await c.student()).id);
      const [filed, deleted] = await Promise.all([
        t.app.inject({
          method: "POST",
          url: rest ? "/api/safety/report" : "/api/trpc/safety.report",
          headers: await headersOf(reporter.phone),
          payload: { target: { userId: minor.id }, reason: "under_18" },
        }),
        deleteOwn(!rest, minor.phone),
      ]);
      seen.add(filed.statusCode);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect([200, 404], `round ${round}: ${filed.body}`).toContain(filed.statusCode);
      expect(await t.deps.db.select().from(keptUrgentReports)).toHaveLength(filed.statusCode === 200 ? 1 : 0);

      const headers = await headersOf(minor.phone);
      const saves = await Promise.all(
        [true, false].map((restSave) =>
          t.app.inject({
            method: restSave ? "PATCH" : "POST",
            url: restSave ? "/api/users/update" : "/api/trpc/users.update",
            headers,
            payload: { firstName: "Again", university: c.school.id, gender: "female", preference: "male" },
          }),
        ),
      );
      for (const save of saves) expect(save.statusCode, save.body).toBe(200);
      expect(await t.deps.db.select().from(keptUrgentReports)).toHaveLength(0);
      const id = (saves[0]!.json() as { user: { id: string } }).user.id;
      const entry = (await queue()).students.find((s) => s.userId === id);
      expect(entry?.reports.length ?? 0).toBe(filed.statusCode === 200 ? 1 : 0);
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  it("a block racing the deletion is 200 or 404, never a 500", async () => {
    for (let round = 0; round < 8; round++) {
      const rest = round % 2 === 0;
      const target = await c.student({ gender: "female", firstName: `Blocked ${round}` });
      const blocker = await c.student();
      await showTo(t, blocker.id, target.id, (await c.student()).id);
      const [blocked, deleted] = await Promise.all([
        t.app.inject({
          method: "POST",
          url: rest ? "/api/safety/block" : "/api/trpc/safety.block",
          headers: await headersOf(blocker.phone),
          payload: { userId: target.id },
        }),
        deleteOwn(!rest, target.phone),
      ]);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect([200, 404], `round ${round}: ${blocked.body}`).toContain(blocked.statusCode);
    }
    expect(await t.deps.db.select().from(blocks)).toHaveLength(0);
  });
});

import { REPORT_REASON_LABELS, ReviewQueue } from "@quad/contracts";
import { reports } from "@quad/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { type campus, newSchoolWithModerator } from "../test/voters";

/**
 * At a school that just launched every account is days old, and a report
 * from an account under three days old weighs nothing toward a hold: no
 * number of reports holds anyone there. An "Under 18" report must still
 * reach the moderators first, whatever it weighs, showing how long it has
 * waited. Reports are filed over REST and tRPC, as a student would.
 */

const DAY_MS = 86_400_000;
let t: TestApp;
let admin: Record<string, string>;
let c: Awaited<ReturnType<typeof campus>>;

beforeAll(async () => {
  t = await createTestApp();
  // A new school: the reporter signed up an hour ago.
  ({ c, admin } = await newSchoolWithModerator(t));
}, 60_000);
afterAll(() => t?.close());

async function reportOver(via: "rest" | "trpc", target: string, reason: string) {
  const res = await t.app.inject({
    method: "POST",
    url: via === "rest" ? "/api/safety/report" : "/api/trpc/safety.report",
    headers: c.headers,
    payload: { target: { userId: target }, reason },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const queue = async () =>
  ReviewQueue.parse(
    (await t.app.inject({ method: "GET", url: "/api/trpc/admin.reviewQueue", headers: admin })).json().result.data,
  );

describe("an Under 18 report", () => {
  it("reaches the moderators as urgent, at the top of the queue, with how long it has waited, though it weighs nothing", async () => {
    // A student reported many times over, by established accounts, for something less pressing.
    const muchReported = await c.student({ firstName: "Often" });
    const reporters = await Promise.all(
      [1, 2].map(() => c.student({ gender: "male", createdAt: new Date(Date.now() - 40 * DAY_MS) })),
    );
    await t.deps.db
      .insert(reports)
      .values(
        reporters.map((r) => ({ reporterId: r.id, reportedId: muchReported.id, reason: "fake_profile" as const })),
      );

    const minors: string[] = [];
    for (const via of ["rest", "trpc"] as const) {
      const minor = await c.student({ firstName: `Minor ${via}` });
      const beside = await c.student();
      await showTo(t, c.me.id, minor.id, beside.id);
      await reportOver(via, minor.id, "under_18");
      minors.push(minor.id);
    }

    const { students } = await queue();
    // Both urgent students come first, the one reported first (waiting longest) at the top.
    expect(students.slice(0, 2).map((s) => s.userId)).toEqual(minors);
    for (const student of students.slice(0, 2)) {
      expect(student.weight).toBe(0);
      expect(student.held).toBe(false);
      expect(student.urgentSince).toBe(student.reports[0]!.at);
      expect(student.reports).toMatchObject([{ reason: REPORT_REASON_LABELS.under_18, urgent: true, weight: 0 }]);
    }
    const often = students.find((s) => s.userId === muchReported.id)!;
    expect(often).toMatchObject({ urgentSince: null, weight: 2 });
    expect(often.reports.every((r) => !r.urgent)).toBe(true);
  });

  it("keeps a student with an Under 18 report at the top when other reports about them come later", async () => {
    const minor = await c.student({ firstName: "Minor again" });
    const beside = await c.student();
    await showTo(t, c.me.id, minor.id, beside.id);
    await reportOver("rest", minor.id, "under_18");
    const other = await c.student({ gender: "male", createdAt: new Date(Date.now() - 40 * DAY_MS) });
    await t.deps.db.insert(reports).values({ reporterId: other.id, reportedId: minor.id, reason: "harassment" });

    const entry = (await queue()).students.find((s) => s.userId === minor.id)!;
    const urgent = entry.reports.find((r) => r.urgent)!;
    expect(entry.urgentSince).toBe(urgent.at);
    expect(entry.reports.map((r) => r.urgent).sort()).toEqual([false, true]);
  });
});

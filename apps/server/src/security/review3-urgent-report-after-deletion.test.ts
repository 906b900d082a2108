import { ReviewQueue } from "@quad/contracts";
import { keptUrgentReports } from "@quad/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { type campus, newSchoolWithModerator, sessionFor } from "../test/voters";

/**
 * An "Under 18" report from a new account weighs nothing and holds no one,
 * so its student can still delete the account. Deleting took the report
 * with it (the reports about a student cascade), and signing up again with
 * the same phone started clean: the report was gone unreviewed. Refusing
 * the deletion would tell the student they were reported. Now the deletion
 * goes through as for anyone, the open urgent reports are kept under a
 * keyed digest of the phone, and a new account with that phone finds them
 * in the moderators' queue again; the student is told nothing (not held,
 * the same answers as anyone).
 */
let t: TestApp;
let c: Awaited<ReturnType<typeof campus>>;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  // A school that just launched: every reporter is new and weighs nothing.
  ({ c, admin } = await newSchoolWithModerator(t));
}, 60_000);
afterAll(() => t?.close());

type Via = "rest" | "trpc";
const headersOf = (token: string) => ({ authorization: `Bearer ${token}` });
const queue = async () =>
  ReviewQueue.parse(
    (await t.app.inject({ method: "GET", url: "/api/trpc/admin.reviewQueue", headers: admin })).json().result.data,
  );

async function report(target: string, reason: string) {
  const beside = await c.student();
  await showTo(t, c.me.id, target, beside.id);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/safety/report",
    headers: c.headers,
    payload: { target: { userId: target }, reason },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function deleteOwnAccount(via: Via, phone: string) {
  const res = await t.app.inject({
    method: "POST",
    url: via === "rest" ? "/api/users/delete-account" : "/api/trpc/account.delete",
    headers: headersOf((await sessionFor(t, phone)).token),
    payload: { confirm: "DELETE" },
  });
  return { status: res.statusCode, body: via === "rest" ? res.json() : res.json().result?.data };
}

/** Signs in again with the phone and makes a profile, as the sign-up wizard does; answers the new id. */
async function signUpAgain(via: Via, phone: string): Promise<{ id: string; me: Record<string, unknown> }> {
  const headers = headersOf((await sessionFor(t, phone)).token);
  const res = await t.app.inject({
    method: via === "rest" ? "PATCH" : "POST",
    url: via === "rest" ? "/api/users/update" : "/api/trpc/users.update",
    headers,
    payload: { firstName: "Again", university: c.school.id, gender: "female", preference: "male" },
  });
  expect(res.statusCode, res.body).toBe(200);
  const user = (via === "rest" ? res.json() : res.json().result.data).user as Record<string, unknown>;
  return { id: user.id as string, me: user };
}

describe("an Under 18 report that holds no one survives its student's deletion", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`comes back to the moderators when the phone signs up again, the student told nothing (${via})`, async () => {
      const minor = await c.student({ gender: "female", preference: "male", firstName: `Minor ${via}` });
      await report(minor.id, "under_18");
      const urgentSince = (await queue()).students.find((s) => s.userId === minor.id)!.urgentSince;
      expect(urgentSince).not.toBeNull();

      // Deleting answers exactly what anyone's deletion answers.
      const unreported = await c.student({ gender: "female" });
      const plain = await deleteOwnAccount(via, unreported.phone);
      const deleted = await deleteOwnAccount(via, minor.phone);
      expect(deleted).toEqual(plain);
      expect(deleted.status).toBe(200);
      expect((await queue()).students.some((s) => s.userId === minor.id)).toBe(false);
      // What is kept names no phone: a keyed digest only.
      const kept = await t.deps.db.select().from(keptUrgentReports);
      expect(kept.length).toBeGreaterThan(0);
      expect(JSON.stringify(kept)).not.toContain(minor.phone.slice(2));

      const again = await signUpAgain(via, minor.phone);
      expect(again.id).not.toBe(minor.id);
      // Not held, not paused, no report in the export: nothing tells the student there was a report.
      expect(again.me).toMatchObject({ heldForReview: false, paused: false });
      const exported = await t.app.inject({
        method: "GET",
        url: via === "rest" ? "/api/users/export" : "/api/trpc/account.export",
        headers: headersOf((await sessionFor(t, minor.phone)).token),
      });
      expect(exported.statusCode, exported.body).toBe(200);
      const document = (via === "rest" ? exported.json() : exported.json().result.data) as Record<string, unknown>;
      // The export's only reports are those the student filed.
      expect(Object.keys(document).filter((key) => /report/i.test(key))).toEqual(["reportsMade"]);
      expect(document.reportsMade).toEqual([]);
      const entry = (await queue()).students.find((s) => s.userId === again.id);
      expect(entry, "the urgent report is in the queue again, on the new account").toBeDefined();
      expect(entry!.urgentSince).toBe(urgentSince);
      expect(entry!.reports).toMatchObject([{ urgent: true, at: urgentSince }]);
      // Taken back, not copied: a second return finds nothing more.
      const unrelated = await signUpAgain(via, unreported.phone);
      expect((await queue()).students.some((s) => s.userId === unrelated.id)).toBe(false);
    });
  }

  it("keeps only open urgent reports, and only from the student's own deletion", async () => {
    const harassed = await c.student({ gender: "female", firstName: "Other reason" });
    await report(harassed.id, "harassment");
    expect((await deleteOwnAccount("rest", harassed.phone)).status).toBe(200);
    const back = await signUpAgain("rest", harassed.phone);
    expect((await queue()).students.some((s) => s.userId === back.id)).toBe(false);

    // A moderator's removal is the review: nothing comes back.
    const removed = await c.student({ gender: "female", firstName: "Removed" });
    await report(removed.id, "under_18");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/trpc/admin.removeProfile",
      headers: admin,
      payload: { userId: removed.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    const returned = await signUpAgain("trpc", removed.phone);
    expect((await queue()).students.some((s) => s.userId === returned.id)).toBe(false);
  });
});

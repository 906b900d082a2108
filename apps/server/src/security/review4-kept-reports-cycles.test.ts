import { ReviewQueue } from "@quad/contracts";
import { keptUrgentReports } from "@quad/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeExpired } from "../modules/notifications/purge";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { type campus, newSchoolWithModerator, sessionFor } from "../test/voters";

/**
 * The fourth hostile review of kept Under 18 reports: a reported student
 * deleting and signing up again, over and over, over REST and tRPC; the
 * reporters deleting their own accounts meanwhile; the purge. Every cycle
 * must answer exactly as an unreported student's, keep no more than the
 * open reports, and never fail (a failure only for reported students would
 * tell them).
 */
let t: TestApp;
let c: Awaited<ReturnType<typeof campus>>;
let admin: Record<string, string>;
const now = () => t.deps.now();

beforeAll(async () => {
  t = await createTestApp();
  ({ c, admin } = await newSchoolWithModerator(t));
}, 60_000);
afterAll(() => t?.close());

type Via = "rest" | "trpc";
const headersOf = async (phone: string) => ({ authorization: `Bearer ${(await sessionFor(t, phone)).token}` });
const queue = async () =>
  ReviewQueue.parse(
    (await t.app.inject({ method: "GET", url: "/api/trpc/admin.reviewQueue", headers: admin })).json().result.data,
  );

async function reportAs(reporter: { id: string; phone: string }, target: string) {
  const beside = await c.student();
  await showTo(t, reporter.id, target, beside.id);
  return t.app.inject({
    method: "POST",
    url: "/api/safety/report",
    headers: await headersOf(reporter.phone),
    payload: { target: { userId: target }, reason: "under_18" },
  });
}

async function deleteOwn(via: Via, phone: string) {
  const res = await t.app.inject({
    method: "POST",
    url: via === "rest" ? "/api/users/delete-account" : "/api/trpc/account.delete",
    headers: await headersOf(phone),
    payload: { confirm: "DELETE" },
  });
  return { status: res.statusCode, body: via === "rest" ? res.json() : res.json().result?.data };
}

async function signUp(via: Via, phone: string) {
  const res = await t.app.inject({
    method: via === "rest" ? "PATCH" : "POST",
    url: via === "rest" ? "/api/users/update" : "/api/trpc/users.update",
    headers: await headersOf(phone),
    payload: { firstName: "Again", university: c.school.id, gender: "female", preference: "male" },
  });
  expect(res.statusCode, res.body).toBe(200);
  const user = (via === "rest" ? res.json() : res.json().result.data).user as Record<string, unknown>;
  return { id: user.id as string, me: user };
}

describe("kept Under 18 reports across repeated deletions", () => {
  it("five cycles over REST and tRPC: same answers as anyone's, never more kept than filed, never lost", async () => {
    const minor = await c.student({ gender: "female", preference: "male", firstName: "Cycler" });
    const reporters = [await c.student(), await c.student(), await c.student()];
    for (const r of reporters) expect((await reportAs(r, minor.id)).statusCode).toBe(200);
    // Two of the three reporters leave before the student does: their reports have nobody behind them.
    expect((await deleteOwn("rest", reporters[0]!.phone)).status).toBe(200);
    expect((await deleteOwn("trpc", reporters[1]!.phone)).status).toBe(200);

    let current = minor.id;
    for (let cycle = 0; cycle < 5; cycle++) {
      const via: Via = cycle % 2 === 0 ? "rest" : "trpc";
      const plainStudent = await c.student({ gender: "female" });
      const plain = await deleteOwn(via, plainStudent.phone);
      const deleted = await deleteOwn(via, minor.phone);
      expect(deleted, `cycle ${cycle}`).toEqual(plain);
      expect(await t.deps.db.select().from(keptUrgentReports)).toHaveLength(3);
      const again = await signUp(via, minor.phone);
      const fresh = await signUp(via, plainStudent.phone);
      expect(again.id).not.toBe(current);
      current = again.id;
      // The same profile fields as a student nobody reported.
      const shape = (me: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(me).filter(([k]) => !["id", "phone", "createdAt", "updatedAt", "firstName"].includes(k)),
        );
      expect(shape(again.me)).toEqual(shape(fresh.me));
      expect(await t.deps.db.select().from(keptUrgentReports)).toHaveLength(0);
      const entry = (await queue()).students.find((s) => s.userId === current);
      expect(entry?.reports, `cycle ${cycle}`).toHaveLength(3);
    }

    // The reporter still here cannot report the new account twice, nor does anything else pile up.
    const again = await reportAs(reporters[2]!, current);
    expect(again.statusCode).toBe(409);
    expect((await queue()).students.find((s) => s.userId === current)?.reports).toHaveLength(3);
  });

  it("the purge takes kept reports a year after the deletion, and a sign-up after that finds none", async () => {
    const minor = await c.student({ gender: "female", preference: "male", firstName: "Purged" });
    const reporter = await c.student();
    expect((await reportAs(reporter, minor.id)).statusCode).toBe(200);
    expect((await deleteOwn("trpc", minor.phone)).status).toBe(200);
    expect(await t.deps.db.select().from(keptUrgentReports)).toHaveLength(1);
    // The reporter leaves too: the kept row's reporter goes to null, the purge still works.
    expect((await deleteOwn("rest", reporter.phone)).status).toBe(200);
    const early = await purgeExpired(t.deps.db, new Date(now().getTime() + 364 * 86_400_000));
    expect(early.keptUrgentReports).toBe(0);
    const late = await purgeExpired(t.deps.db, new Date(now().getTime() + 366 * 86_400_000));
    expect(late.keptUrgentReports).toBe(1);
    const back = await signUp("rest", minor.phone);
    expect((await queue()).students.some((s) => s.userId === back.id)).toBe(false);
  });
});

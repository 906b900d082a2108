import { ERROR_MESSAGES, REPORTS_PER_DAY, REPORTS_TO_HOLD, REPORTER_WEIGHT, type ReviewQueue } from "@quad/contracts";
import { blocks, reports, unlocks, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { countingCandidatePool } from "../test/counting-pool";
import { showTo as showSeen } from "../test/shown";
import { campus, sessionFor } from "../test/voters";
import { receiveVotes } from "../test/votes";

/**
 * Reports and blocks act only on a student the caller was shown (a candidate
 * in one of their rounds, or a voter they unlocked). A report must come from
 * a verified student of the target's school; a hold needs reports weighing
 * REPORTS_TO_HOLD, where new accounts weigh nothing and young ones half
 * (decision 0010). Every attack runs over REST and tRPC.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
let clockOffsetMs = 0;
const now = () => new Date(Date.now() + clockOffsetMs);
let invalidations = 0;

let t: TestApp;
beforeAll(async () => {
  // The real pool, counting invalidations: each hold invalidates it once.
  const counting = countingCandidatePool(() => invalidations++);
  t = await createTestApp({ now, candidatePool: counting.pool });
  counting.attach(t.deps.db, () => now().getTime());
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
type Via = "rest" | "trpc";
const VIAS: Via[] = ["rest", "trpc"];
const REST_PATH = { report: "/api/safety/report", block: "/api/safety/block" } as const;

/** A safety write over either surface, answering the status and the error message if any. */
async function write(via: Via, headers: Headers, kind: "report" | "block", payload: object) {
  const url = via === "rest" ? REST_PATH[kind] : `/api/trpc/safety.${kind}`;
  const res = await t.app.inject({ method: "POST", url, headers, payload });
  const body = res.json();
  return {
    status: res.statusCode,
    message: (via === "rest" ? body.message : body.error?.message) as string | undefined,
    body: res.body,
  };
}

async function listBlocked(via: Via, headers: Headers): Promise<{ userId: string; firstName: string }[]> {
  if (via === "rest") return (await t.app.inject({ method: "GET", url: "/api/safety/blocks", headers })).json().blocked;
  return (await t.app.inject({ method: "GET", url: "/api/trpc/safety.blocks", headers })).json().result.data.blocked;
}

const headersOf = async (phone: string): Promise<Headers> => ({
  authorization: `Bearer ${(await sessionFor(t, phone)).token}`,
});
const daysAgo = (days: number) => new Date(now().getTime() - days * DAY_MS);
/** Old enough that a report counts in full: the rule under test is who may report, not account age. */
const ESTABLISHED = { createdAt: daysAgo(REPORTER_WEIGHT.youngAccountDays + 30) };

const showTo = (voterId: string, shown: string, beside: string) => showSeen(t, voterId, shown, beside);

const heldAt = async (id: string) =>
  (await t.deps.db.select({ held: users.heldForReviewAt }).from(users).where(eq(users.id, id)))[0]!.held;
const reportsAbout = async (id: string) => t.deps.db.select().from(reports).where(eq(reports.reportedId, id));

describe.each(VIAS)("reporting over %s", (via) => {
  it("three fresh accounts (unverified, another school, never shown) are each refused and hold nothing", async () => {
    const c = await campus(t);
    const target = await c.student({ gender: "female" });
    const unverified = await c.student({ ...ESTABLISHED, isVerified: false, photoKey: null });
    const elsewhere = await campus(t, ESTABLISHED);
    const neverShown = await c.student(ESTABLISHED);
    const payload = { target: { userId: target.id }, reason: "fake_profile" };

    const a = await write(via, await headersOf(unverified.phone), "report", payload);
    expect([a.status, a.message]).toEqual([403, ERROR_MESSAGES.reportNeedsVerifiedProfile]);
    const b = await write(via, elsewhere.headers, "report", payload);
    const d = await write(via, await headersOf(neverShown.phone), "report", payload);
    // Not shown answers exactly like an id that is no student at all: no oracle for ids.
    const missing = await write(via, await headersOf(neverShown.phone), "report", {
      ...payload,
      target: { userId: crypto.randomUUID() },
    });
    for (const res of [b, d])
      expect({ status: res.status, message: res.message }).toEqual({
        status: missing.status,
        message: missing.message,
      });
    expect(missing.status).toBe(404);

    expect(await reportsAbout(target.id)).toEqual([]);
    expect(await heldAt(target.id)).toBeNull();
  });

  it("a student shown someone who has since moved school cannot report them; a held student cannot report", async () => {
    const c = await campus(t, ESTABLISHED);
    const target = await c.student({ gender: "female" });
    const filler = await c.student({ gender: "female" });
    await showTo(c.me.id, target.id, filler.id);
    const elsewhere = await campus(t);
    await t.deps.db
      .update(users)
      .set({ schoolId: elsewhere.school.id, schoolEmail: null, schoolEmailDomain: null, schoolVerifiedAt: null })
      .where(eq(users.id, target.id));
    const moved = await write(via, c.headers, "report", { target: { userId: target.id }, reason: "fake_profile" });
    expect([moved.status, moved.message]).toEqual([403, ERROR_MESSAGES.reportOtherSchool]);

    await t.deps.db.update(users).set({ pausedAt: now(), heldForReviewAt: now() }).where(eq(users.id, c.me.id));
    const held = await write(via, c.headers, "report", { target: { userId: filler.id }, reason: "harassment" });
    expect([held.status, held.message]).toEqual([403, ERROR_MESSAGES.reportWhileHeld]);
    expect(await reportsAbout(filler.id)).toEqual([]);
  });

  it("brand-new accounts shown the target never hold it, young ones count half, established ones in full", async () => {
    const c = await campus(t, { gender: "female", preference: "male" });
    const target = await c.student({ gender: "male", preference: "female" });
    await c.student({ gender: "male", preference: "female" }); // the other candidate of every round
    const make = (createdAt: Date) => c.student({ gender: "female", preference: "male", createdAt });
    const report = async (reporter: { id: string; phone: string }) => {
      const headers = await headersOf(reporter.phone);
      // Shown for real: the only two students of the wanted gender are the target and the filler.
      const round = (await t.app.inject({ method: "GET", url: "/api/prompts/random", headers })).json();
      expect(round.users.map((u: { id: string }) => u.id)).toContain(target.id);
      return write(via, headers, "report", { target: { userId: target.id }, reason: "fake_profile" });
    };

    // Twice as many brand-new accounts as a hold needs: each report is taken, none weighs anything.
    for (let i = 0; i < REPORTS_TO_HOLD * 2; i++) expect((await report(await make(daysAgo(0)))).status).toBe(200);
    expect(await heldAt(target.id)).toBeNull();
    // Established: 1 + 1; young: 0.5 each. 2.5 is not a hold, 3 is.
    for (const createdAt of [
      ESTABLISHED.createdAt,
      ESTABLISHED.createdAt,
      daysAgo(REPORTER_WEIGHT.newAccountDays + 1),
    ]) {
      expect((await report(await make(createdAt))).status).toBe(200);
    }
    expect(await heldAt(target.id)).toBeNull();
    expect((await report(await make(daysAgo(REPORTER_WEIGHT.youngAccountDays - 1)))).status).toBe(200);
    expect(await heldAt(target.id)).not.toBeNull();
    const targetHeaders = await headersOf(target.phone);
    const unpause = await t.app.inject({
      method: "POST",
      url: "/api/users/pause",
      headers: targetHeaders,
      payload: { paused: false },
    });
    expect(unpause.statusCode).toBe(403);
  });

  it(`limits each reporter to ${REPORTS_PER_DAY} reports in 24 hours`, async () => {
    const c = await campus(t, ESTABLISHED);
    const shown = await Promise.all(Array.from({ length: REPORTS_PER_DAY + 2 }, () => c.student({ gender: "female" })));
    for (let i = 0; i < shown.length; i++) await showTo(c.me.id, shown[i]!.id, shown[(i + 1) % shown.length]!.id);
    let headers: Headers = c.headers;
    const report = (i: number) =>
      write(via, headers, "report", { target: { userId: shown[i]!.id }, reason: "harassment" });
    for (let i = 0; i < REPORTS_PER_DAY; i++) expect((await report(i)).status, `report ${i + 1}`).toBe(200);
    const over = await report(REPORTS_PER_DAY);
    expect([over.status, over.message]).toEqual([429, ERROR_MESSAGES.tooManyReports]);
    // Until the first of the ten leaves the 24 hours.
    const retryAfter =
      via === "rest" ? JSON.parse(over.body).retryAfterSeconds : JSON.parse(over.body).error.data.retryAfterSeconds;
    expect(retryAfter).toBeGreaterThan(DAY_MS / 1000 - 120);
    expect(retryAfter).toBeLessThanOrEqual(DAY_MS / 1000);
    expect(await reportsAbout(shown[REPORTS_PER_DAY]!.id)).toEqual([]);

    clockOffsetMs += DAY_MS + 1000;
    try {
      headers = await headersOf(c.me.phone); // a day later the old access token has expired
      expect((await report(REPORTS_PER_DAY)).status).toBe(200);
      expect((await report(REPORTS_PER_DAY + 1)).status).toBe(200);
    } finally {
      clockOffsetMs -= DAY_MS + 1000;
    }
  });

  it("a burst of concurrent reports from one reporter passes the daily limit by none", async () => {
    const c = await campus(t, ESTABLISHED);
    const shown = await Promise.all(Array.from({ length: REPORTS_PER_DAY + 4 }, () => c.student({ gender: "female" })));
    for (let i = 0; i < shown.length; i++) await showTo(c.me.id, shown[i]!.id, shown[(i + 1) % shown.length]!.id);
    const results = await Promise.all(
      shown.map((s) => write(via, c.headers, "report", { target: { userId: s.id }, reason: "harassment" })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(REPORTS_PER_DAY);
    expect(results.filter((r) => r.status === 429)).toHaveLength(shown.length - REPORTS_PER_DAY);
  });

  it("concurrent reports from eligible reporters hold the student exactly once", async () => {
    const c = await campus(t);
    const filler = await c.student({ gender: "female" });
    // Several students, each reported at once by exactly as many reporters as a hold needs: every
    // report must see the others, or none of them holds.
    const cases = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const target = await c.student({ gender: "female" });
        const reporters = await Promise.all(
          Array.from({ length: REPORTS_TO_HOLD }, () => c.student({ ...ESTABLISHED, gender: "male" })),
        );
        for (const reporter of reporters) await showTo(reporter.id, target.id, filler.id);
        return { target, headers: await Promise.all(reporters.map((r) => headersOf(r.phone))) };
      }),
    );

    const before = invalidations;
    const results = await Promise.all(
      cases.flatMap(({ target, headers }) =>
        headers.map((h) => write(via, h, "report", { target: { userId: target.id }, reason: "under_18" })),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    for (const { target } of cases) expect(await heldAt(target.id)).not.toBeNull();
    expect(invalidations - before).toBe(cases.length);
  });
});

describe.each(VIAS)("blocking over %s", (via) => {
  it("refuses an arbitrary id (another school, never shown), and the block list reveals nothing", async () => {
    const attacker = await campus(t);
    const victimSchool = await campus(t);
    const victim = await victimSchool.student({ firstName: "Private", photoKey: "photos/private.jpg" });
    const res = await write(via, attacker.headers, "block", { userId: victim.id });
    const missing = await write(via, attacker.headers, "block", { userId: crypto.randomUUID() });
    expect(res.status).toBe(404);
    expect({ status: res.status, message: res.message }).toEqual({ status: missing.status, message: missing.message });
    expect(await t.deps.db.select().from(blocks).where(eq(blocks.blockerId, attacker.me.id))).toEqual([]);

    // A row written before the rule (or by any path that skipped it) is not listed either.
    await t.deps.db.insert(blocks).values({ blockerId: attacker.me.id, blockedId: victim.id });
    for (const v of VIAS) expect(await listBlocked(v, attacker.headers)).toEqual([]);
    const raw = await t.app.inject({ method: "GET", url: "/api/safety/blocks", headers: attacker.headers });
    expect(raw.body).not.toContain("Private");
    expect(raw.body).not.toContain(victim.id);
  });

  it("blocks a candidate shown in a round and a voter the caller unlocked (by card and by id)", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const a = await c.student({ gender: "female", firstName: "Shown" });
    await c.student({ gender: "female", firstName: "Shown" });
    const round = (await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers })).json();
    const candidate = round.users[0].id as string;
    expect((await write(via, c.headers, "block", { userId: candidate })).status).toBe(200);

    const voter = await c.student({ gender: "male", firstName: "Unlocked" });
    const otherVoter = await c.student({ gender: "male", firstName: "Unlocked" });
    const { votes } = await receiveVotes(t, { recipientId: c.me.id, voterIds: [voter.id, otherVoter.id], at: now() });
    // Locked: neither the card nor the voter's id opens the door.
    expect((await write(via, c.headers, "block", { voteCardId: votes[0]!.id })).status).toBe(404);
    expect((await write(via, c.headers, "block", { userId: voter.id })).status).toBe(404);
    await t.deps.db.insert(unlocks).values([
      { ownerId: c.me.id, voterId: voter.id },
      { ownerId: c.me.id, voterId: otherVoter.id },
    ]);
    expect((await write(via, c.headers, "block", { voteCardId: votes[0]!.id })).status).toBe(200);
    expect((await write(via, c.headers, "block", { userId: otherVoter.id })).status).toBe(200);

    const listed = await listBlocked(via, c.headers);
    expect(listed.map((b) => b.userId).sort()).toEqual([candidate, voter.id, otherVoter.id].sort());
    expect(a).toBeDefined();
  });

  it("after a vote, both candidates of that round stay shown: the recipient and the one beside them", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    for (let i = 0; i < 2; i++) await c.student({ gender: "female", firstName: "Shown" });
    const round = (await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers })).json();
    const [votedFor, beside] = [round.users[0].id as string, round.users[1].id as string];
    const voted = await t.app.inject({
      method: "POST",
      url: "/api/votes/store",
      headers: c.headers,
      payload: { userId: votedFor, promptId: round.prompt.id },
    });
    expect(voted.statusCode).toBe(200);
    const never = await c.student({ gender: "female", firstName: "Never" });

    expect((await write(via, c.headers, "block", { userId: never.id })).status).toBe(404);
    expect((await write(via, c.headers, "block", { userId: beside })).status).toBe(200);
    expect(
      (await write(via, c.headers, "report", { target: { userId: votedFor }, reason: "fake_profile" })).status,
    ).toBe(200);
    expect((await listBlocked(via, c.headers)).map((b) => b.userId)).toEqual([beside]);
  });

  it("a skipped round's candidates stay shown", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    // Enough students that the next round draws none of the skipped one's (see draw.ts).
    for (let i = 0; i < 12; i++) await c.student({ gender: "female", firstName: "Shown" });
    const skipped = (await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers })).json();
    const next = await t.app.inject({ method: "GET", url: "/api/prompts/random?skip=true", headers: c.headers });
    expect(next.statusCode).toBe(200);
    expect(next.json().users.map((u: { id: string }) => u.id)).not.toContain(skipped.users[1].id);
    expect((await write(via, c.headers, "block", { userId: skipped.users[1].id })).status).toBe(200);
  });
});

describe("the moderators' queue", () => {
  it("lists every open report with its reporter, the time, and what it weighs", async () => {
    const c = await campus(t, { ...ESTABLISHED, firstName: "Ash" });
    const newcomer = await c.student({ firstName: "Blair", gender: "male" });
    const target = await c.student({ gender: "female", firstName: "Reported" });
    const filler = await c.student({ gender: "female" });
    await showTo(c.me.id, target.id, filler.id);
    await showTo(newcomer.id, target.id, filler.id);
    expect(
      (await write("rest", c.headers, "report", { target: { userId: target.id }, reason: "fake_profile" })).status,
    ).toBe(200);
    expect(
      (
        await write("trpc", await headersOf(newcomer.phone), "report", {
          target: { userId: target.id },
          reason: "harassment",
        })
      ).status,
    ).toBe(200);

    const admin = await c.student({ gender: "male" });
    await grantAdmin(t.deps.db, admin.phone);
    const res = await t.app.inject({
      method: "GET",
      url: "/api/trpc/admin.reviewQueue",
      headers: await headersOf(admin.phone),
    });
    const queue: ReviewQueue = res.json().result.data;
    const entry = queue.students.find((s) => s.userId === target.id)!;
    const stored = await reportsAbout(target.id);
    expect(entry.weight).toBe(1);
    expect(
      entry.reports
        .map((r) => ({ by: r.reporter, at: r.at, weight: r.weight }))
        .sort((x, y) => x.by!.firstName.localeCompare(y.by!.firstName)),
    ).toEqual([
      {
        by: { userId: c.me.id, firstName: "Ash" },
        at: stored.find((s) => s.reporterId === c.me.id)!.createdAt.toISOString(),
        weight: 1,
      },
      {
        by: { userId: newcomer.id, firstName: "Blair" },
        at: stored.find((s) => s.reporterId === newcomer.id)!.createdAt.toISOString(),
        weight: 0,
      },
    ]);
  });
});

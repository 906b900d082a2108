import { PromptResponse, PromptRound, SCREEN_TEXT } from "@quad/contracts";
import { blocks, users, voterState } from "@quad/db/schema";
import { seed } from "@quad/db/seed";
import { createTestDatabase, insertTestSchool, type TestDatabase } from "@quad/db/testing";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestAppOn, type TestApp } from "../../test/app";
import { countingCandidatePool } from "../../test/counting-pool";
import { countingDatabase, type CountingDatabase } from "../../test/statement-counter";
import { campus } from "../../test/voters";
import { VoterHints } from "./voter-hints";

/**
 * Opening a round in one statement from the per-process hint (service.ts
 * openFromHint): the same rules as the two-round-trip path, whatever the
 * hint says. On Postgres each opening's statements are counted, so the tests
 * also prove the one-statement path was the one that ran.
 */
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
let database: TestDatabase;
let counting: CountingDatabase | null = null;
let t: TestApp;
let invalidations: (number | undefined)[] = [];
let clock = Date.parse("2026-03-02T15:00:00Z");

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.kind === "postgres" && serverUrl) counting = await countingDatabase(serverUrl, database.db);
  const db = counting?.db ?? database.db;
  const pool = countingCandidatePool((schoolId) => invalidations.push(schoolId));
  t = await createTestAppOn(db, database.kind, { now: () => new Date(clock), candidatePool: pool.pool });
  pool.attach(db, () => clock);
  await seed(db, { demo: false, media: t.deps.media });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await counting?.close();
  await database?.close();
});
beforeEach(() => {
  clock += 24 * 60 * 60 * 1000;
  invalidations = [];
});

type Headers = Record<string, string>;
/** GET /prompts/random, with the statements it sent (null on PGlite, where none are counted). */
async function open(headers: Headers) {
  let res: { statusCode: number; body: string } | undefined;
  const send = async () => {
    res = await t.app.inject({ method: "GET", url: "/api/prompts/random", headers });
  };
  const statements = counting ? (await counting.statementsOf(send)).length : (await send(), null);
  expect(res!.statusCode, res!.body).toBe(200);
  return { body: PromptResponse.parse(JSON.parse(res!.body)), statements };
}
const roundOf = async (headers: Headers) => {
  const { body, statements } = await open(headers);
  return { round: PromptRound.parse(body), statements };
};
const closeRound = (voterId: string, set: Partial<typeof voterState.$inferInsert> = {}) =>
  t.deps.db
    .update(voterState)
    .set({ roundOpen: false, ...set })
    .where(eq(voterState.userId, voterId));
const ids = (round: PromptRound) => round.users.map((u) => u.id);
/** Moves students to another school, proved by its domain, telling no pool and no hint. */
const moveBehindTheBack = async (userIds: string[], school: { id: number; domain: string }) =>
  t.deps.db
    .update(users)
    .set({ schoolId: school.id, schoolEmailDomain: school.domain.toLowerCase() })
    .where(inArray(users.id, userIds));

/** A campus whose voter this process has seen (their first round was opened in two round trips) and closed again. */
async function seenCampus(students: number, voter: Parameters<typeof campus>[1] = {}) {
  const c = await campus(t, voter);
  const shown = [];
  for (let i = 0; i < students; i++) shown.push(await c.student({ gender: "female" }));
  await roundOf(c.headers);
  await closeRound(c.me.id, { recentCandidateIds: [] });
  return { ...c, shown };
}

/** Most openings go through the one statement (a short list with fewer than two who qualify falls back). */
function expectMostlyOneStatement(statements: (number | null)[]) {
  if (!counting) return;
  const one = statements.filter((n) => n === 1).length;
  expect(one, `statements per opening: ${statements.join(",")}`).toBeGreaterThanOrEqual(statements.length / 4);
}

describe("opening a round in one statement", () => {
  it("is one statement in the common case, and the round it opens takes the vote", async () => {
    const c = await seenCampus(20);
    const { round, statements } = await roundOf(c.headers);
    if (counting) expect(statements).toBe(1);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/votes/store",
      headers: c.headers,
      payload: { userId: round.users[0].id, promptId: round.prompt.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    // The reload of an open round and the cooldown are one statement too.
    const next = await roundOf(c.headers);
    const reload = await roundOf(c.headers);
    expect(reload.round).toEqual(next.round);
    if (counting) expect([next.statements, reload.statements]).toEqual([1, 1]);
  });

  it("never shows a recently shown candidate while others are available", async () => {
    const c = await seenCampus(40);
    // 30 of 40 shown recently: a short list of 8 holds some of them almost every time.
    const recent = c.shown.slice(0, 30).map((u) => u.id);
    const statements = [];
    for (let i = 0; i < 30; i++) {
      await closeRound(c.me.id, { recentCandidateIds: recent });
      const opened = await roundOf(c.headers);
      for (const id of ids(opened.round)) expect(recent).not.toContain(id);
      statements.push(opened.statements);
    }
    expectMostlyOneStatement(statements);
  });

  it("leaves a small pool to drawPair's keep-in-play rule, which shows the longest-waiting recent one again", async () => {
    const c = await seenCampus(9);
    // Newest first: three were never shown, and drawPair keeps the one shown longest ago in play with them.
    const recent = c.shown.slice(0, 6).map((u) => u.id);
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await closeRound(c.me.id, { recentCandidateIds: recent });
      for (const id of ids((await roundOf(c.headers)).round)) seen.add(id);
    }
    // Excluding every recent one, as in a big pool, would only ever show the three never shown.
    expect(seen.has(recent[5]!)).toBe(true);
    for (const id of recent.slice(0, 5)) expect(seen.has(id)).toBe(false);
  });

  it("never shows a blocked student, either way", async () => {
    const c = await seenCampus(20);
    const blocked = c.shown.slice(0, 10);
    await t.deps.db
      .insert(blocks)
      .values([
        ...blocked.slice(0, 5).map((u) => ({ blockerId: c.me.id, blockedId: u.id })),
        ...blocked.slice(5).map((u) => ({ blockerId: u.id, blockedId: c.me.id })),
      ]);
    const blockedIds = blocked.map((u) => u.id);
    const statements = [];
    for (let i = 0; i < 20; i++) {
      await closeRound(c.me.id, { recentCandidateIds: [] });
      const opened = await roundOf(c.headers);
      for (const id of ids(opened.round)) expect(blockedIds).not.toContain(id);
      statements.push(opened.statements);
    }
    expectMostlyOneStatement(statements);
  });

  it("never shows a student of another school, even when the hint names the old one", async () => {
    const c = await seenCampus(20);
    const other = await insertTestSchool(t.deps.db);
    const there = [];
    for (let i = 0; i < 3; i++) there.push(await c.student({ gender: "female" }));
    // Behind the hint's and the pool's back: nobody was told.
    await moveBehindTheBack([c.me.id, ...there.map((u) => u.id)], other);
    const { round } = await roundOf(c.headers);
    expect(there.map((u) => u.id)).toEqual(expect.arrayContaining(ids(round)));
  });

  it("never shows a student of another gender, even when the hint names the old preference", async () => {
    const c = await seenCampus(20);
    const men = [];
    for (let i = 0; i < 10; i++) men.push(await c.student({ gender: "male" }));
    await t.deps.db.update(users).set({ preference: "male" }).where(eq(users.id, c.me.id));
    for (let i = 0; i < 5; i++) {
      await closeRound(c.me.id);
      const { round } = await roundOf(c.headers);
      expect(men.map((u) => u.id)).toEqual(expect.arrayContaining(ids(round)));
    }
  });

  it("never shows a student who left the school behind the pool's back, and tells the pools", async () => {
    const c = await seenCampus(20);
    const other = await insertTestSchool(t.deps.db);
    const moved = c.shown.slice(0, 15).map((u) => u.id);
    await moveBehindTheBack(moved, other);
    const { round } = await roundOf(c.headers);
    for (const id of ids(round)) expect(moved).not.toContain(id);
    expect(invalidations).toContain(c.school.id);
  });

  it("answers the open round instead of opening a second one, also to two requests at once", async () => {
    const c = await seenCampus(20);
    const get = () => t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers });
    const [a, b] = (await Promise.all([get(), get()])).map((res) => ({ round: PromptRound.parse(res.json()) }));
    expect(b!.round).toEqual(a!.round);
    const [row] = await t.deps.db.select().from(voterState).where(eq(voterState.userId, c.me.id));
    expect(row!.roundOpen).toBe(true);
    expect([row!.roundCandidateAId, row!.roundCandidateBId]).toEqual(ids(a!.round));
    // One round opened: its two candidates are all the recent list holds.
    expect(row!.recentCandidateIds).toEqual(ids(a!.round));
    expect((await roundOf(c.headers)).round).toEqual(a!.round);
  });

  it("respects the cooldown: opens nothing and answers when votes come back", async () => {
    const c = await seenCampus(20);
    const availableAt = new Date(clock + 30 * 60 * 1000);
    await closeRound(c.me.id, { cooldownUntil: availableAt, votesInBatch: 12 });
    const { body, statements } = await open(c.headers);
    expect(body).toEqual({
      error: "out_of_votes",
      message: "Come back in one hour for more votes!",
      availableAt: availableAt.toISOString(),
    });
    if (counting) expect(statements).toBe(1);
    const [row] = await t.deps.db.select().from(voterState).where(eq(voterState.userId, c.me.id));
    expect(row!.roundOpen).toBe(false);
  });

  it("falls back to the two-round-trip answers: too few students, or no longer a member", async () => {
    const c = await seenCampus(9);
    await t.deps.db
      .update(users)
      .set({ pausedAt: new Date(clock) })
      .where(
        inArray(
          users.id,
          c.shown.slice(1).map((u) => u.id),
        ),
      );
    expect((await open(c.headers)).body).toEqual({ error: "no_candidates", message: SCREEN_TEXT.noStudents });
    await t.deps.db
      .update(users)
      .set({ schoolVerifiedAt: null, schoolEmailDomain: null, schoolEmail: null })
      .where(eq(users.id, c.me.id));
    const res = await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers });
    expect(res.statusCode).toBe(403);
  });
});

describe("VoterHints", () => {
  it("keeps at most its bound, dropping the least recently used", () => {
    const hints = new VoterHints(2);
    const hint = (n: number) => ({ voterId: `v${n}`, schoolId: n, shownGender: "female" as const });
    hints.set("a", hint(1));
    hints.set("b", hint(2));
    hints.get("a");
    hints.set("c", hint(3));
    expect(hints.size).toBe(2);
    expect(hints.get("b")).toBeUndefined();
    expect(hints.get("a")).toEqual(hint(1));
    expect(hints.get("c")).toEqual(hint(3));
  });
});

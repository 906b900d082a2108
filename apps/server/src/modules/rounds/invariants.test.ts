import { Round, SKIPS_IN_A_ROW } from "@quad/contracts";
import { blocks, rounds, users, voterState, votes } from "@quad/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { campus } from "../../test/voters";

/**
 * The rules the one-statement round and vote queries must keep, in the cases
 * the older tests did not reach: changes made after a round opened, and
 * requests racing each other.
 */
let t: TestApp;
let clock = Date.parse("2026-05-04T15:00:00Z");
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(clock) });
});
afterAll(() => t?.close());
beforeEach(() => {
  clock += 24 * 60 * 60 * 1000;
  t.deps.candidatePool.invalidate();
});

type Headers = Record<string, string>;
const round = async (headers: Headers, skip = false) =>
  Round.parse((await t.app.inject({ method: "GET", url: `/api/prompts/random?skip=${skip}`, headers })).json());
const vote = (headers: Headers, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/votes/store", headers, payload });
const openRounds = async (voterId: string) =>
  t.deps.db
    .select()
    .from(voterState)
    .where(and(eq(voterState.userId, voterId), eq(voterState.roundOpen, true)));

describe("after a round opened", () => {
  it("a block either way refuses the vote, stores nothing, and the reloaded round leaves that student out", async () => {
    const c = await campus(t);
    for (let i = 0; i < 6; i++) await c.student();
    const r = await round(c.headers);
    const [blocked, kept] = r.users;
    await t.deps.db.insert(blocks).values({ blockerId: blocked.id, blockedId: c.me.id });

    const res = await vote(c.headers, { userId: blocked.id, promptId: r.prompt.id });
    expect(res.statusCode).toBe(409);
    expect(await t.deps.db.select().from(votes).where(eq(votes.voterId, c.me.id))).toHaveLength(0);

    const next = await round(c.headers);
    expect(next.users.map((u) => u.id)).not.toContain(blocked.id);
    expect(await openRounds(c.me.id)).toHaveLength(1);
    expect(kept).toBeDefined();
  });

  it("a paused or held candidate is replaced on reload and never drawn again", async () => {
    const c = await campus(t);
    for (let i = 0; i < 6; i++) await c.student();
    const r = await round(c.headers);
    const held = r.users[0].id;
    await t.deps.db
      .update(users)
      .set({ pausedAt: new Date(clock), heldForReviewAt: new Date(clock) })
      .where(eq(users.id, held));
    t.deps.candidatePool.invalidate();
    for (let i = 0; i < 8; i++) {
      const next = await round(c.headers);
      expect(next.users.map((u) => u.id)).not.toContain(held);
      expect((await vote(c.headers, { userId: next.users[0].id, promptId: next.prompt.id })).statusCode).toBe(200);
    }
  });
});

describe("requests racing each other", () => {
  it("ten skips sent at once take as many skips as rounds they closed, never more than three", async () => {
    const c = await campus(t);
    for (let i = 0; i < 10; i++) await c.student();
    await round(c.headers);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.inject({ method: "GET", url: "/api/prompts/random?skip=true", headers: c.headers }),
      ),
    );
    // A skip whose round another one closed carries on from the new round (or is out of skips).
    for (const res of results) expect([200, 409], res.body).toContain(res.statusCode);
    const [state] = await t.deps.db.select().from(voterState).where(eq(voterState.userId, c.me.id));
    const skipped = await t.deps.db
      .select()
      .from(rounds)
      .where(and(eq(rounds.voterId, c.me.id), eq(rounds.status, "skipped")));
    expect(state!.skipsInRow).toBe(skipped.length);
    expect(skipped.length).toBeGreaterThanOrEqual(1);
    expect(skipped.length).toBeLessThanOrEqual(SKIPS_IN_A_ROW);
    expect(await openRounds(c.me.id)).toHaveLength(1);
  });

  it("ten rounds opened at once leave one open round, answered to all", async () => {
    const c = await campus(t);
    for (let i = 0; i < 10; i++) await c.student();
    const answers = await Promise.all(Array.from({ length: 10 }, () => round(c.headers)));
    expect(await openRounds(c.me.id)).toHaveLength(1);
    const [open] = await openRounds(c.me.id);
    for (const answer of answers)
      expect(answer.users.map((u) => u.id).sort()).toEqual([open!.roundCandidateAId, open!.roundCandidateBId].sort());
  });
});

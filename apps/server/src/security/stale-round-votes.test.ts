import { users, votes } from "@quad/db/schema";
import { insertTestSchool } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "../modules/admin/service";
import { createTestApp, type TestApp } from "../test/app";
import { campus, sessionFor } from "../test/voters";

/**
 * A round opened before its candidate left must not carry a vote to them.
 * The attack: keep a round open, and after a candidate paused their profile,
 * was held for review, had their photo taken down by a moderator or moved
 * to another school, post a vote for them straight to the API (the app
 * would have asked for the round again and got it replaced). The vote must
 * be refused and store nothing, over REST and tRPC.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

/** A voter whose open round shows the only two students of their school they may see. */
async function openRound() {
  const c = await campus(t, { gender: "male", preference: "female" });
  await c.student({ gender: "female" });
  await c.student({ gender: "female" });
  const res = await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers });
  expect(res.statusCode, res.body).toBe(200);
  const round = res.json() as { prompt: { id: number }; users: { id: string }[] };
  return { c, promptId: round.prompt.id, candidate: round.users[0]!.id };
}

async function vote(via: "rest" | "trpc", headers: Headers, userId: string, promptId: number) {
  const url = via === "rest" ? "/api/votes/store" : "/api/trpc/rounds.vote";
  return t.app.inject({ method: "POST", url, headers, payload: { userId, promptId } });
}
const votesFor = async (id: string) => (await t.deps.db.select().from(votes).where(eq(votes.recipientId, id))).length;
const tokenOf = async (id: string): Promise<Headers> => {
  const [row] = await t.deps.db.select({ phone: users.phone }).from(users).where(eq(users.id, id));
  return { authorization: `Bearer ${(await sessionFor(t, row!.phone)).token}` };
};

const LEAVES: Record<string, (candidate: string) => Promise<void>> = {
  "paused their profile": async (candidate) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/users/pause",
      headers: await tokenOf(candidate),
      payload: { paused: true },
    });
    expect(res.statusCode, res.body).toBe(200);
  },
  "was held for review": async (candidate) => {
    await t.deps.db
      .update(users)
      .set({ heldForReviewAt: new Date(), pausedAt: new Date() })
      .where(eq(users.id, candidate));
  },
  "had their photo removed by a moderator": async (candidate) => {
    const mod = await campus(t);
    await grantAdmin(t.deps.db, mod.me.phone);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/trpc/admin.removePhoto",
      headers: mod.headers,
      payload: { userId: candidate },
    });
    expect(res.statusCode, res.body).toBe(200);
  },
  "moved to another school": async (candidate) => {
    const elsewhere = await insertTestSchool(t.deps.db);
    const res = await t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: await tokenOf(candidate),
      payload: { university: elsewhere.id },
    });
    expect(res.statusCode, res.body).toBe(200);
  },
};

describe("a vote for a candidate who left since the round opened", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`(control, ${via}) a candidate who is still there gets the vote`, async () => {
      const { c, promptId, candidate } = await openRound();
      expect((await vote(via, c.headers, candidate, promptId)).statusCode).toBe(200);
      expect(await votesFor(candidate)).toBe(1);
    });
    for (const [how, leave] of Object.entries(LEAVES)) {
      it(`is refused and stores nothing when the candidate ${how} (${via})`, async () => {
        const { c, promptId, candidate } = await openRound();
        await leave(candidate);
        const res = await vote(via, c.headers, candidate, promptId);
        expect(res.statusCode, res.body).toBe(409);
        expect(await votesFor(candidate)).toBe(0);
        // The app's next request replaces the round.
        const next = await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers });
        expect(next.body).not.toContain(candidate);
      });
    }
  }
});

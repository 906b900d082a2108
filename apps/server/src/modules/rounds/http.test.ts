import { RoundResponse, Round, SCREEN_TEXT, VOTES_PER_BATCH } from "@quad/contracts";
import { blocks, voterState, votes } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { campus, sessionFor } from "../../test/voters";

let t: TestApp;
let clock = Date.parse("2026-03-02T15:00:00Z");
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(clock) });
});
afterAll(() => t?.close());
beforeEach(() => {
  clock += 24 * 60 * 60 * 1000;
  t.deps.candidatePool.invalidate();
});

type Headers = Record<string, string>;
const random = async (headers: Headers, skip = false) => {
  const res = await t.app.inject({ method: "GET", url: `/api/prompts/random?skip=${skip}`, headers });
  return { status: res.statusCode, body: res.json() };
};
const round = async (headers: Headers, skip = false) => Round.parse((await random(headers, skip)).body);
const vote = (headers: Headers, payload: object) =>
  t.app.inject({ method: "POST", url: "/api/votes/store", headers, payload });
const voteFirst = async (headers: Headers) => {
  const r = await round(headers);
  return vote(headers, { userId: r.users[0].id, promptId: r.prompt.id });
};
const storedVotes = async (voterId: string) => t.deps.db.select().from(votes).where(eq(votes.voterId, voterId));

describe("who is drawn", () => {
  it("only verified, unpaused students of the voter's school and preferred gender, never the voter, never blocked", async () => {
    const c = await campus(t, { gender: "female", preference: "female" });
    const eligible = [
      await c.student({ gender: "female" }),
      await c.student({ gender: "female" }),
      await c.student({ gender: "female" }),
    ];
    const other = await campus(t);
    const ineligible = [
      await other.student({ gender: "female" }),
      await c.student({ gender: "male" }),
      await c.student({ gender: "female", isVerified: false }),
      await c.student({ gender: "female", pausedAt: new Date(clock) }),
    ];
    const blocker = await c.student({ gender: "female" });
    const blockedByMe = await c.student({ gender: "female" });
    await t.deps.db.insert(blocks).values([
      { blockerId: blocker.id, blockedId: c.me.id },
      { blockerId: c.me.id, blockedId: blockedByMe.id },
    ]);
    const allowed = new Set(eligible.map((u) => u.id));
    for (let i = 0; i < 10; i++) {
      const r = await round(c.headers);
      for (const user of r.users) expect(allowed.has(user.id), user.id).toBe(true);
      expect((await vote(c.headers, { userId: r.users[0].id, promptId: r.prompt.id })).statusCode).toBe(200);
    }
    expect(ineligible.length + 2).toBeGreaterThan(0);
  });

  it("shows public fields only: a candidate never carries a handle or a phone", async () => {
    const c = await campus(t);
    const a = await c.student({ instagramHandle: "@secret.handle.a" });
    const b = await c.student({ instagramHandle: "@secret.handle.b" });
    const res = await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers });
    for (const secret of ["secret.handle", a.phone, b.phone, "instagramHandle"]) {
      expect(res.body).not.toContain(secret);
    }
    expect(Round.parse(res.json()).users[0].profileImageUrl).toBe("/api/media/test/photo.jpg");
  });

  it("answers no_candidates with the product's text when fewer than two are eligible", async () => {
    const c = await campus(t);
    await c.student({ gender: "female" });
    const res = await random(c.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: "no_candidates", message: SCREEN_TEXT.noStudents });
  });

  it("answers the same open round on reload instead of burning rounds", async () => {
    const c = await campus(t);
    for (let i = 0; i < 6; i++) await c.student();
    const first = await round(c.headers);
    const again = await round(c.headers);
    expect(again).toEqual(first);
  });

  it("does not repeat prompts within a batch of 12 votes", async () => {
    const c = await campus(t);
    for (let i = 0; i < 30; i++) await c.student();
    const seen: number[] = [];
    for (let i = 0; i < VOTES_PER_BATCH; i++) {
      const r = await round(c.headers);
      seen.push(r.prompt.id);
      await vote(c.headers, { userId: r.users[1].id, promptId: r.prompt.id });
    }
    expect(new Set(seen).size).toBe(VOTES_PER_BATCH);
  });
});

describe("vote allowance", () => {
  it("allows 12 votes, then answers disabled with availableAt and refuses votes for one hour", async () => {
    const c = await campus(t);
    for (let i = 0; i < 10; i++) await c.student();
    for (let i = 1; i < VOTES_PER_BATCH; i++) expect((await voteFirst(c.headers)).json()).toEqual({ disabled: false });
    const last = await voteFirst(c.headers);
    const availableAt = new Date(clock + 60 * 60 * 1000).toISOString();
    expect(last.json()).toEqual({ disabled: true, availableAt });

    expect((await random(c.headers)).body).toEqual({
      error: "out_of_votes",
      message: "Come back in one hour for more votes!",
      availableAt,
    });
    clock += 59 * 60 * 1000;
    // Access tokens live 15 minutes: sign in again after moving the clock.
    c.headers.authorization = `Bearer ${(await sessionFor(t, c.me.phone)).token}`;
    const during = await random(c.headers);
    expect(during.body.error, JSON.stringify(during)).toBe("out_of_votes");
    expect((await storedVotes(c.me.id)).length).toBe(VOTES_PER_BATCH);

    clock += 60 * 1000;
    expect((await voteFirst(c.headers)).json()).toEqual({ disabled: false });
    expect((await storedVotes(c.me.id)).length).toBe(VOTES_PER_BATCH + 1);
  });

  it("stores exactly one of 20 concurrent votes when one vote is left", async () => {
    const c = await campus(t);
    for (let i = 0; i < 10; i++) await c.student();
    await t.deps.db.insert(voterState).values({ userId: c.me.id, votesInBatch: VOTES_PER_BATCH - 1 });
    const r = await round(c.headers);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        vote(c.headers, { userId: r.users[i % 2 === 0 ? 0 : 1].id, promptId: r.prompt.id }),
      ),
    );
    expect(results.filter((res) => res.statusCode === 200)).toHaveLength(1);
    for (const res of results) expect(res.statusCode).toBeLessThan(500);
    expect(await storedVotes(c.me.id)).toHaveLength(1);
    const [state] = await t.deps.db.select().from(voterState).where(eq(voterState.userId, c.me.id));
    expect(state!.votesInBatch).toBe(VOTES_PER_BATCH);
  });
});

describe("skip allowance", () => {
  it("allows 3 skips in a row, then refuses with Out of Skips until a vote", async () => {
    const c = await campus(t);
    for (let i = 0; i < 12; i++) await c.student();
    await round(c.headers);
    expect((await round(c.headers, true)).prompt.skipDisabled).toBe(false);
    expect((await round(c.headers, true)).prompt.skipDisabled).toBe(false);
    const third = await round(c.headers, true);
    expect(third.prompt.skipDisabled).toBe(true);
    const fourth = await random(c.headers, true);
    expect(fourth.status).toBe(409);
    expect(fourth.body).toEqual({ message: "Submit a vote to get more skips!", code: "CONFLICT" });
    // The refused skip left the round open.
    expect(await round(c.headers)).toEqual(third);

    await vote(c.headers, { userId: third.users[0].id, promptId: third.prompt.id });
    expect((await round(c.headers, true)).prompt.skipDisabled).toBe(false);
  });
});

describe("votes outside the open round", () => {
  it("are refused with a 4xx and store nothing", async () => {
    const c = await campus(t);
    const outsider = await c.student();
    for (let i = 0; i < 6; i++) await c.student();
    const r = await round(c.headers);
    const notInRound = r.users.some((u) => u.id === outsider.id) ? (await c.student()).id : outsider.id;
    const cases = [
      { userId: notInRound, promptId: r.prompt.id },
      { userId: r.users[0].id, promptId: r.prompt.id + 1 },
      { userId: c.me.id, promptId: r.prompt.id },
    ];
    for (const payload of cases) {
      const res = await vote(c.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toBe("That student is not part of your current round.");
    }
    expect(await storedVotes(c.me.id)).toHaveLength(0);
    expect((await vote(c.headers, { userId: r.users[0].id, promptId: r.prompt.id })).statusCode).toBe(200);
    const twice = await vote(c.headers, { userId: r.users[0].id, promptId: r.prompt.id });
    expect(twice.statusCode).toBe(409);
    expect(await storedVotes(c.me.id)).toHaveLength(1);
  });

  it("answers bad input with 400 and no session with 401", async () => {
    const c = await campus(t);
    expect(
      (await t.app.inject({ method: "GET", url: "/api/prompts/random?skip=maybe", headers: c.headers })).statusCode,
    ).toBe(400);
    for (const payload of [
      {},
      { userId: 5, promptId: 1 },
      { userId: "x", promptId: "one" },
      { userId: "x", promptId: 1, extra: 1 },
    ]) {
      expect((await vote(c.headers, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(
      (await t.app.inject({ method: "POST", url: "/api/votes/store", payload: { userId: "x", promptId: 1 } }))
        .statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: "GET", url: "/api/prompts/random" })).statusCode).toBe(401);
  });

  it("skips over tRPC with the rounds.skip mutation, and only there: rounds.open answers the open round again", async () => {
    const c = await campus(t);
    for (let i = 0; i < 6; i++) await c.student();
    const trpc = async (method: "GET" | "POST", path: string) => {
      const res = await t.app.inject({
        method,
        url: `/api/trpc/${path}`,
        headers: c.headers,
        ...(method === "POST" ? { payload: {} } : {}),
      });
      return { status: res.statusCode, data: (res.json() as { result?: { data?: unknown } }).result?.data };
    };
    const first = Round.parse((await trpc("GET", "rounds.open")).data);
    expect(Round.parse((await trpc("GET", "rounds.open")).data)).toEqual(first);
    // A skip changes state: never a GET, so no prefetch or retry of a query skips a round.
    expect((await trpc("GET", "rounds.skip")).status).toBe(405);
    const skipped = await trpc("POST", "rounds.skip");
    expect(skipped.status).toBe(200);
    const next = Round.parse(skipped.data);
    expect(next.prompt.id === first.prompt.id && next.users[0].id === first.users[0].id).toBe(false);
    expect(Round.parse((await trpc("GET", "rounds.open")).data)).toEqual(next);
    // REST's documented `?skip=true` reaches the same mutation.
    const restSkip = Round.parse((await random(c.headers, true)).body);
    expect(restSkip).not.toEqual(next);
    expect(Round.parse((await random(c.headers)).body)).toEqual(restSkip);
  });

  it("saves a preference sent with a vote", async () => {
    const c = await campus(t);
    for (let i = 0; i < 4; i++) await c.student({ gender: "female" });
    for (let i = 0; i < 4; i++) await c.student({ gender: "male" });
    const r = await round(c.headers);
    await vote(c.headers, { userId: r.users[0].id, promptId: r.prompt.id, preference: "male" });
    const me = await t.app.inject({ method: "GET", url: "/api/users/me", headers: c.headers });
    expect(me.json().preference).toBe("male");
    const next = await round(c.headers);
    const ids = new Set(
      (await t.deps.db.query.users.findMany({ where: (u, { eq: e }) => e(u.gender, "male") })).map((u) => u.id),
    );
    for (const user of next.users) expect(ids.has(user.id)).toBe(true);
  });
});

describe("GET /api/prompts/unauthenticated", () => {
  it("shows two opted-in students of the gender, public fields only", async () => {
    const c = await campus(t);
    await c.student({ gender: "female", instagramHandle: "@preview.secret" });
    await c.student({ gender: "female", instagramHandle: "@preview.secret" });
    const res = await t.app.inject({
      method: "GET",
      url: "/api/prompts/unauthenticated?gender=female",
      remoteAddress: "10.50.0.1",
    });
    expect(res.statusCode).toBe(200);
    const body = RoundResponse.parse(res.json());
    expect("users" in body && body.users).toHaveLength(2);
    expect(res.body).not.toContain("preview.secret");
    expect(res.body).not.toContain("+1");
  });

  it("never shows students who did not opt in", async () => {
    const c = await campus(t, { gender: "female" });
    const hidden = await c.student({ gender: "male", showInPreview: false, firstName: "Hidden" });
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({
        method: "GET",
        url: "/api/prompts/unauthenticated?gender=male",
        remoteAddress: "10.50.0.2",
      });
      expect(res.body).not.toContain(hidden.id);
    }
  });

  it("refuses an unknown gender with 400 and limits each address", async () => {
    const bad = await t.app.inject({ method: "GET", url: "/api/prompts/unauthenticated?gender=robot" });
    expect(bad.statusCode).toBe(400);
    let last = 200;
    for (let i = 0; i < 61; i++) {
      last = (
        await t.app.inject({
          method: "GET",
          url: "/api/prompts/unauthenticated?gender=female",
          remoteAddress: "10.50.0.9",
        })
      ).statusCode;
    }
    expect(last).toBe(429);
  });
});

import { Round, VOTES_PER_BATCH, InboxPage } from "@quad/contracts";
import { unlocks, voterState, votes } from "@quad/db/schema";
import { seedReferenceData } from "@quad/db/seed";
import {
  createTestDatabase,
  insertTestPrompt,
  insertTestSchool,
  insertTestUser,
  type TestDatabase,
} from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../modules/auth/sessions";
import { createTestAppOn, type TestApp } from "../test/app";
import { countingDatabase, type CountingDatabase } from "../test/statement-counter";

/**
 * docs/performance.md: how many statements (round trips to Postgres) each hot request
 * sends, BEGIN and COMMIT included. The pool of 10 connections is shared by
 * every request, so each round trip held is throughput lost. Counted on
 * Postgres only (PGlite has no wire to count on).
 */
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
describe.skipIf(!serverUrl)("round trips per hot request", () => {
  let database: TestDatabase;
  let counting: CountingDatabase;
  let t: TestApp;
  let headers: Record<string, string>;
  let voterId: string;
  const counts: Record<string, number> = {};

  /** Sends one request and answers the statements it cost. */
  const request = async (name: string, method: "GET" | "POST", url: string, payload?: object) => {
    let res: { statusCode: number; body: string } | undefined;
    const statements = await counting.statementsOf(async () => {
      res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    });
    expect(res!.statusCode, res!.body).toBe(200);
    counts[name] = statements.length;
    return { body: JSON.parse(res!.body) as unknown, statements };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedReferenceData(database.db);
    counting = await countingDatabase(serverUrl!, database.db);
    const db = counting.db;
    t = await createTestAppOn(db, "postgres");
    const { now, config } = t.deps;
    const school = await insertTestSchool(db);
    const me = await insertTestUser(db, { schoolId: school.id, gender: "male", preference: "female" });
    for (let i = 0; i < 30; i++) await insertTestUser(db, { schoolId: school.id, gender: "female" });
    voterId = me.id;
    headers = {
      authorization: `Bearer ${(await startSession({ db, now, secret: config.JWT_SECRET! }, me.phone)).token}`,
    };
  }, 120_000);

  afterAll(async () => {
    console.log(`statements per request: ${JSON.stringify(counts)}`);
    await t?.close();
    await counting?.close();
    await database?.close();
  });

  it("opens a round in 2, answers it on reload in 1, takes a vote in 1, skips and opens in 3", async () => {
    // The candidate pool and prompt list are cached per process: warm them, as on a running server.
    await request("first round (pool cold)", "GET", "/api/prompts/random");
    const first = Round.parse((await request("reload (round open)", "GET", "/api/prompts/random")).body);
    await request("vote", "POST", "/api/votes/store", { userId: first.users[0].id, promptId: first.prompt.id });
    await request("open a round (pool warm)", "GET", "/api/prompts/random");
    await request("skip and open", "GET", "/api/prompts/random?skip=true");
    const open = Round.parse((await request("reload after skip", "GET", "/api/prompts/random")).body);
    await counting.db
      .update(voterState)
      .set({ votesInBatch: VOTES_PER_BATCH - 1 })
      .where(eq(voterState.userId, voterId));
    await request("last vote of the batch", "POST", "/api/votes/store", {
      userId: open.users[1].id,
      promptId: open.prompt.id,
    });
    await request("out of votes", "GET", "/api/prompts/random");
    expect(counts).toMatchObject({
      "reload (round open)": 1,
      vote: 1,
      "open a round (pool warm)": 2,
      "skip and open": 3,
      "reload after skip": 1,
      "last vote of the batch": 1,
      "out of votes": 1,
    });
  });

  it("pages received votes in 1, by page and by cursor, unlocked cards included", async () => {
    const prompt = await insertTestPrompt(counting.db);
    const school = await insertTestSchool(counting.db);
    const voters = await Promise.all(
      Array.from({ length: 15 }, () => insertTestUser(counting.db, { schoolId: school.id })),
    );
    await counting.db.insert(votes).values(
      voters.map((v, i) => ({
        voterId: v.id,
        recipientId: voterId,
        promptId: prompt.id,
        createdAt: new Date(Date.now() - i * 1000),
        deliveredAt: new Date(Date.now() - i * 1000),
      })),
    );
    // Within an hour the order is the vote id's (random): with 8 of 15 unlocked,
    // a page of 10 always holds both kinds.
    await counting.db.insert(unlocks).values(voters.slice(0, 8).map((v) => ({ ownerId: voterId, voterId: v.id })));
    const page = InboxPage.parse((await request("received votes page 1", "GET", "/api/votes/for-user?limit=10")).body);
    expect(page.votes.some((v) => v.isUnlocked)).toBe(true);
    expect(page.votes.some((v) => !v.isUnlocked)).toBe(true);
    await request("received votes page 2", "GET", "/api/votes/for-user?page=2&limit=10");
    await request("received votes by cursor", "GET", `/api/votes/for-user?limit=10&cursor=${page.nextCursor}`);
    expect(counts).toMatchObject({
      "received votes page 1": 1,
      "received votes page 2": 1,
      "received votes by cursor": 1,
    });
  });

  it("reads the signed-in profile with its school in 1", async () => {
    await request("users.me", "GET", "/api/users/me");
    expect(counts["users.me"]).toBe(1);
  });
});

import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { VOTES_PER_BATCH } from "@quad/contracts";
import type { Database } from "@quad/db";
import * as schema from "@quad/db/schema";
import { unlocks, users, voterState, votes } from "@quad/db/schema";
import { seedReferenceData } from "@quad/db/seed";
import {
  createTestDatabase,
  deliveredAt,
  insertTestPrompt,
  insertTestSchool,
  insertTestUser,
  type TestDatabase,
  type TestUserOverrides,
} from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDiskStorage } from "../media/storage";
import type { AuthTokens } from "@quad/contracts";
import { createSessionRevocations } from "../modules/auth/revocations";
import { startSession } from "../modules/auth/sessions";
import { createCandidatePool, type CandidatePool } from "../modules/rounds/candidate-pool";
import { createPostgresInvalidationBus } from "../modules/rounds/pool-invalidation";
import { createRedisRateLimiter } from "../rate-limit/redis-limiter";
import { createTestAppOn, testConfig, type TestApp } from "../test/app";
import { urlOfTestDatabase } from "../test/postgres";

/**
 * docs/architecture.md "Several processes": two app instances as two server processes
 * would be — each with its own connection pool, candidate pool, LISTEN
 * connection and Redis client — on one Postgres and one Redis (the
 * machine's, 127.0.0.1:6379). Requests alternate between them.
 */
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
const REDIS_URL = "redis://127.0.0.1:6379";

interface ServerProcess {
  app: TestApp["app"];
  db: Database;
  pool: CandidatePool;
  close(): Promise<void>;
}

async function startProcess(
  url: string,
  opts: { mediaDir: string; redisPrefix: string; now: () => Date },
): Promise<ServerProcess> {
  const client = postgres(url, { max: 5, onnotice: () => {} });
  const db: Database = drizzle(client, { schema });
  const bus = await createPostgresInvalidationBus(url);
  const rateLimiter = createRedisRateLimiter(REDIS_URL, {
    prefix: opts.redisPrefix,
    commandTimeoutMs: 2000,
    log: { warn: () => {}, info: () => {} },
  });
  // Until connected, a process counts for itself (as while Redis is away); these tests need the shared count.
  while (!rateLimiter.isShared()) await new Promise((r) => setTimeout(r, 20));
  // A clock that never moves for the pool: a pool loaded once is kept for good unless
  // another process's change reaches it, so a fresh read below can only come from NOTIFY.
  const pool = createCandidatePool(db, () => 0, bus);
  const sessionRevocations = await createSessionRevocations({ db, now: opts.now, listenUrl: url });
  const t = await createTestAppOn(db, "postgres", {
    media: createDiskStorage(opts.mediaDir),
    rateLimiter,
    candidatePool: pool,
    sessionRevocations,
    now: opts.now,
  });
  return {
    app: t.app,
    db,
    pool,
    async close() {
      await t.close();
      await rateLimiter.close();
      await bus.close();
      await sessionRevocations.close();
      await client.end({ timeout: 5 });
    },
  };
}

describe.skipIf(!serverUrl)(
  serverUrl
    ? "two server processes on one Postgres and one Redis"
    : "two server processes (skipped: needs DATABASE_URL — LISTEN/NOTIFY and row locks across processes need Postgres)",
  () => {
    let database: TestDatabase;
    let mediaDir: string;
    let a: ServerProcess;
    let b: ServerProcess;
    const now = () => new Date();
    const both = () => [a, b];

    beforeAll(async () => {
      database = await createTestDatabase();
      await seedReferenceData(database.db);
      const url = await urlOfTestDatabase(database.db, serverUrl!);
      mediaDir = await mkdtemp(path.join(tmpdir(), "quad-processes-"));
      const redisPrefix = `quad:test:${randomUUID()}:`;
      a = await startProcess(url, { mediaDir, redisPrefix, now });
      b = await startProcess(url, { mediaDir, redisPrefix, now });
    });

    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.close();
      if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
    });

    const headersFor = async (phone: string) => ({
      authorization: `Bearer ${(await startSession({ db: database.db, now, secret: testConfig().JWT_SECRET! }, phone)).token}`,
    });

    async function campus() {
      const school = await insertTestSchool(database.db);
      const student = (overrides: Partial<TestUserOverrides> = {}) =>
        insertTestUser(database.db, { schoolId: school.id, gender: "female", showInPreview: true, ...overrides });
      const voter = await student({ gender: "male", preference: "female" });
      return { school, student, voter, headers: await headersFor(voter.phone) };
    }

    it("vote allowance: of 20 votes sent at once to both processes with one vote left, exactly one is stored", async () => {
      const c = await campus();
      for (let i = 0; i < 6; i++) await c.student();
      await database.db.insert(voterState).values({ userId: c.voter.id, votesInBatch: VOTES_PER_BATCH - 1 });
      const round = (await a.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers })).json();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          both()[i % 2]!.app.inject({
            method: "POST",
            url: "/api/votes/store",
            headers: c.headers,
            payload: { userId: round.users[i % 2].id, promptId: round.prompt.id },
          }),
        ),
      );
      expect(results.map((r) => r.statusCode).filter((s) => s === 200)).toHaveLength(1);
      for (const res of results) expect(res.statusCode).toBeLessThan(500);
      expect(await database.db.select().from(votes).where(eq(votes.voterId, c.voter.id))).toHaveLength(1);
      const [state] = await database.db.select().from(voterState).where(eq(voterState.userId, c.voter.id));
      expect(state!.votesInBatch).toBe(VOTES_PER_BATCH);
      for (const p of both()) {
        expect(
          (await p.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers })).json().error,
        ).toBe("out_of_votes");
      }
    });

    it("unlock credits: two credits reveal two voters, however the unlocks are spread over the processes", async () => {
      const c = await campus();
      await database.db.update(users).set({ remainingUnlocks: 2 }).where(eq(users.id, c.voter.id));
      const prompt = await insertTestPrompt(database.db);
      const voters = await Promise.all(Array.from({ length: 4 }, () => c.student()));
      const cards = await database.db
        .insert(votes)
        .values(voters.map((v) => ({ voterId: v.id, recipientId: c.voter.id, promptId: prompt.id, ...deliveredAt() })))
        .returning({ id: votes.id, voterId: votes.voterId });
      const results = await Promise.all(
        [...cards, ...cards].map((card, i) =>
          both()[i % 2]!.app.inject({
            method: "POST",
            url: "/api/unlocks/unlock-user",
            headers: c.headers,
            payload: { userId: card.id },
          }),
        ),
      );
      for (const res of results) expect([200, 402]).toContain(res.statusCode);
      const revealed = await database.db.select().from(unlocks).where(eq(unlocks.ownerId, c.voter.id));
      expect(revealed).toHaveLength(2);
      const [owner] = await database.db
        .select({ left: users.remainingUnlocks })
        .from(users)
        .where(eq(users.id, c.voter.id));
      expect(owner!.left).toBe(0);
      const paidFor = new Set(
        results.filter((r) => r.statusCode === 200).map((r) => r.json().unlockedUser.id as string),
      );
      const voterOfCard = new Map(cards.map((card) => [card.id, card.voterId]));
      expect(new Set([...paidFor].map((id) => voterOfCard.get(id)))).toEqual(new Set(revealed.map((r) => r.voterId)));
    });

    it("rate limits: an address gets 60 previews a minute in total, not 60 from each process", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 70; i++) {
        const res = await both()[i % 2]!.app.inject({
          method: "GET",
          url: "/api/prompts/unauthenticated?gender=female",
          remoteAddress: "10.77.0.1",
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
      expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    });

    it("candidate pool: a student who proves membership in one process is drawable in the other at once", async () => {
      const c = await campus();
      await c.student();
      await c.student();
      const ids = async (p: ServerProcess) => (await p.pool.candidates(c.school.id, "female")).map((e) => e.id).sort();
      expect(await ids(b)).toHaveLength(2);

      const joiner = await insertTestUser(database.db, { schoolId: c.school.id, gender: "female", member: false });
      const headers = await headersFor(joiner.phone);
      const email = `joiner@${c.school.domain}`;
      expect(
        (await a.app.inject({ method: "POST", url: "/api/trpc/schoolEmail.sendCode", headers, payload: { email } }))
          .statusCode,
      ).toBe(200);
      const outbox = await a.app.inject({
        method: "GET",
        url: `/api/dev/email-outbox?to=${encodeURIComponent(email)}`,
      });
      const code = (outbox.json() as { messages: { body: string }[] }).messages[0]!.body.match(/\b(\d{6})\b/)![1]!;
      const proved = await a.app.inject({
        method: "POST",
        url: "/api/trpc/schoolEmail.verify",
        headers,
        payload: { email, code },
      });
      expect(proved.statusCode, proved.body).toBe(200);
      await expect.poll(() => ids(b), { timeout: 2000, interval: 20 }).toContain(joiner.id);
    });

    it("candidate pool: a boost bought in one process weighs in the other's draws at once", async () => {
      const c = await campus();
      const booster = await c.student();
      await c.student();
      const boostOf = async (p: ServerProcess) =>
        (await p.pool.candidates(c.school.id, "female")).find((e) => e.id === booster.id)!.boostEndsAt;
      expect(await boostOf(b)).toBe(0);

      const headers = await headersFor(booster.phone);
      const intent = await a.app.inject({
        method: "POST",
        url: "/api/payments/create-payment-intent",
        headers,
        payload: { productId: "boost-1" },
      });
      expect(intent.statusCode, intent.body).toBe(200);
      const paid = await a.app.inject({
        method: "POST",
        url: "/api/payments/local/confirm",
        headers,
        payload: { clientSecret: intent.json().clientSecret, cardNumber: "4242 4242 4242 4242" },
      });
      expect(paid.statusCode, paid.body).toBe(200);
      await expect.poll(() => boostOf(b), { timeout: 2000, interval: 20 }).toBeGreaterThan(Date.now());
    });

    describe("signing out in one process reaches the other within a second", () => {
      const me = (p: ServerProcess, tokens: AuthTokens) =>
        p.app
          .inject({ method: "GET", url: "/api/users/me", headers: { authorization: `Bearer ${tokens.token}` } })
          .then((r) => r.statusCode);
      const refusedBy = (p: ServerProcess, tokens: AuthTokens) =>
        expect.poll(() => me(p, tokens), { timeout: 1000, interval: 20 }).toBe(401);
      const session = async () => {
        const c = await campus();
        const tokens = await startSession({ db: database.db, now, secret: testConfig().JWT_SECRET! }, c.voter.phone);
        // B has verified (and remembered) the token before the sign-out.
        expect(await me(b, tokens)).toBe(200);
        return tokens;
      };

      it("logout through A: B refuses the token", async () => {
        const tokens = await session();
        expect(
          (
            await a.app.inject({
              method: "POST",
              url: "/api/auth/logout",
              payload: { refreshToken: tokens.refreshToken },
            })
          ).statusCode,
        ).toBe(200);
        await refusedBy(b, tokens);
      });

      it("refresh-token reuse through A: B refuses the family's tokens", async () => {
        const tokens = await session();
        const next = (
          await a.app.inject({
            method: "POST",
            url: "/api/auth/refresh",
            payload: { refreshToken: tokens.refreshToken },
          })
        ).json() as AuthTokens;
        expect(await me(b, next)).toBe(200);
        expect(
          (
            await a.app.inject({
              method: "POST",
              url: "/api/auth/refresh",
              payload: { refreshToken: tokens.refreshToken },
            })
          ).statusCode,
        ).toBe(401);
        await refusedBy(b, next);
        await refusedBy(b, tokens);
      });

      it("account deletion through A: B refuses the token, and a process that starts later does too", async () => {
        const tokens = await session();
        const headers = { authorization: `Bearer ${tokens.token}` };
        expect(
          (
            await a.app.inject({
              method: "POST",
              url: "/api/users/delete-account",
              headers,
              payload: { confirm: "DELETE" },
            })
          ).statusCode,
        ).toBe(200);
        await refusedBy(b, tokens);
        const late = await startProcess(await urlOfTestDatabase(database.db, serverUrl!), {
          mediaDir,
          redisPrefix: `quad:test:${randomUUID()}:`,
          now,
        });
        try {
          expect(await me(late, tokens)).toBe(401);
        } finally {
          await late.close();
        }
      });
    });
  },
);

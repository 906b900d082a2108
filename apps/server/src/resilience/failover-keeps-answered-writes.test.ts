import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase, type Database, type DatabaseHandle } from "@quad/db";
import { votes } from "@quad/db/schema";
import { deliveredAt, insertTestPrompt, insertTestSchool, insertTestUser } from "@quad/db/testing";
import { decodeJwt } from "jose";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSession } from "../modules/auth/sessions";
import { haUnavailableReason, startHaCluster, type HaCluster, type HaNode } from "../test/ha-cluster";
import { startLoad, type Student } from "../test/ha-load";
import { send, startServerProcess, type ServerProcess } from "../test/server-process";

/**
 * Losing the database machine loses nothing: a real server process on a
 * pg_auto_failover cluster (deploy/ha/local-cluster.sh: a monitor, a primary
 * and its synchronous standby), students voting, signing up, unlocking and
 * paying, and the primary's Postgres and keeper killed with SIGKILL. Every
 * write the server answered 2xx is on the new primary, the allowance, credit
 * and unlock rules hold, the only 5xx is 503 with Retry-After, the process
 * lives on, and its LISTEN connections follow the primary. Then the old
 * primary comes back as the standby and a second failover goes back to it,
 * and a planned switchover runs under the same load (decision 0032).
 */
const skipReason = haUnavailableReason();
const JWT_SECRET = randomBytes(32).toString("hex");
const VOTERS = 240;
const CANDIDATES = 30;
const RECIPIENTS = 3;
/** Past voters of the recipients, whose cards the recipients unlock. */
const PAST_VOTERS = 40;
const START_CREDITS = 2;
const UNLOCKS_A_PACKAGE = 3;
/** Writes flow this long before the primary is lost, and this long once they are answered again. */
const STEADY_MS = 3_000;
const FIRST_WRITE_GOAL_MS = 30_000;

interface World {
  voters: Student[];
  recipients: Student[];
  /** Signed-in students kept for the sign-out check after each failover, one each. */
  sentinels: (Student & { familyId: string })[];
}

describe.skipIf(skipReason)(
  skipReason ? `failover (skipped: ${skipReason})` : "failing over to the synchronous standby",
  () => {
    let cluster: HaCluster;
    let server: ServerProcess;
    let handle: DatabaseHandle;
    /** The checks' own connection, through the same multi-host URL as the server's. */
    let check: postgres.Sql;
    let world: World;
    /** The node killed last and not started again. */
    let down: HaNode | undefined;

    beforeAll(async () => {
      cluster = await startHaCluster();
      server = await startServerProcess(process.env, { DATABASE_URL: cluster.url, JWT_SECRET });
      handle = await createDatabase({ url: cluster.url, poolSize: 4 });
      check = postgres(cluster.url, { max: 2, onnotice: () => {} });
      world = await seedCampus(handle.db);
    }, 240_000);

    afterAll(async () => {
      await server?.stop();
      await check?.end({ timeout: 5 });
      await handle?.close();
      await cluster?.destroy();
    }, 60_000);

    /** Load, `lose` the primary (returns when done), wait for writes again, then check everything. */
    async function underLoad(label: string, lose: (primary: HaNode) => Promise<void>) {
      const before = await cluster.primary();
      expect(before, "a primary before the failure").toBeDefined();
      const load = startLoad(server.base, {
        voters: world.voters,
        recipients: world.recipients,
        voteLanes: 6,
        paceMs: 60,
      });
      await new Promise((r) => setTimeout(r, STEADY_MS));
      const startedAt = performance.now();
      await lose(before!);
      // A kill is over when the script returns; a switchover when the new primary was promoted.
      const lostAt = performance.now();
      await vi.waitFor(
        () => {
          if (load.firstWriteAfter(lostAt) === undefined) throw new Error("no write answered yet");
        },
        { timeout: 90_000, interval: 100 },
      );
      await new Promise((r) => setTimeout(r, STEADY_MS));
      await load.stop();
      const after = await cluster.primary();

      const statuses = new Map<number, number>();
      for (const a of load.answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      const written = load.answered;
      const firstWriteMs = load.firstWriteAfter(lostAt)! - lostAt;
      const writeGapMs = load.longestWriteGap(startedAt - STEADY_MS);
      console.log(
        `${label} (${before} → ${after}): first write ${(firstWriteMs / 1000).toFixed(1)} s after, longest write gap ` +
          `${(writeGapMs / 1000).toFixed(1)} s; answered 2xx: ${written.votes.length} votes, ` +
          `${written.signups.length} sign-ups, ${written.unlocks.length} unlocks, ${written.payments.length} payments; ` +
          `statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );

      expect(after, "the other node took over").not.toBe(before);
      expect(server.alive(), `the server exited:\n${server.output().slice(-2000)}`).toBe(true);
      const refused = load.answers.filter((a) => a.status >= 400 && a.status < 500 && a.status !== 402);
      if (refused.length > 0) console.log(refused.map((a) => `${a.status} ${a.path}: ${a.body}`).join("\n"));
      const failed = load.answers.filter((a) => a.status >= 500 && a.status !== 503);
      expect(failed.map((a) => `${a.status} ${a.path}: ${a.body}`)).toEqual([]);
      for (const a of load.answers.filter((x) => x.status === 503))
        expect(a.headers["retry-after"], a.path).toMatch(/^[1-9]\d*$/);
      expect(load.answers.filter((a) => a.status === 0).map((a) => a.path)).toEqual([]);
      expect(written.votes.length).toBeGreaterThan(0);
      await expectAnsweredWritesKept(check, written);
      await expectInvariants(check, world);
      await expectListenersOnPrimary(server.base, cluster.nodeUrl(after!), world.sentinels.shift()!);
      expect(firstWriteMs).toBeLessThan(FIRST_WRITE_GOAL_MS);
      expect(writeGapMs).toBeLessThan(FIRST_WRITE_GOAL_MS);
    }

    const killPrimary = async (primary: HaNode) => {
      await cluster.kill(primary);
      down = primary;
    };
    /** The killed node's keeper starts again: it rewinds and follows the new primary. */
    const bringBack = async () => {
      if (!down) return;
      await cluster.start(down);
      down = undefined;
      await cluster.healthy(120);
    };

    it("loses no answered write when the primary's machine dies (SIGKILL of its Postgres and keeper)", async () => {
      await underLoad("failover", killPrimary);
    }, 180_000);

    it("takes the old primary back as the standby, and fails over back to it", async () => {
      await bringBack();
      await underLoad("second failover", killPrimary);
    }, 300_000);

    it("loses no answered write in a planned switchover under load", async () => {
      await bringBack();
      await underLoad("switchover", () => cluster.switchover());
    }, 300_000);

    it("backs up with `pnpm db:backup` from the standby, and from the primary", async () => {
      await bringBack();
      const dir = await mkdtemp(path.join(tmpdir(), "quad-ha-backup-"));
      try {
        // libpq picks the node: `standby` insists on it (the operator's guide says prefer-standby, which falls back).
        for (const attrs of ["standby", "read-write"]) {
          const file = path.join(dir, `${attrs}.pgdump`);
          const url = cluster.url.replace("target_session_attrs=read-write", `target_session_attrs=${attrs}`);
          // What `pnpm db:backup --out FILE` runs.
          const cli = [process.execPath, "--import", "tsx", "src/cli/backup.ts", "--out", file];
          const backup = await run(cli, { DATABASE_URL: url }, DB_PACKAGE_DIR);
          expect(backup.code, backup.output).toBe(0);
          const listed = await run(["pg_restore", "--list", file], {}, dir);
          expect(listed.output).toMatch(/TABLE DATA public votes/);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }, 120_000);
  },
);

const DB_PACKAGE_DIR = path.resolve(import.meta.dirname, "../../../../packages/db");

/** Runs a command with the test's environment less any database, plus `env`; answers its exit code and output. */
function run(
  command: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; output: string }> {
  const inherited = { ...process.env };
  for (const name of ["DATABASE_URL", "TEST_DATABASE_URL"]) delete inherited[name];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd, env: { ...inherited, ...env } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** A school with voters, the students they vote on, and recipients with locked cards and two credits. */
async function seedCampus(db: Database): Promise<World> {
  const school = await insertTestSchool(db);
  const student = (gender: "male" | "female", extra: { remainingUnlocks?: number } = {}) =>
    insertTestUser(db, {
      schoolId: school.id,
      gender,
      preference: gender === "male" ? "female" : "male",
      ...extra,
    });
  const signIn = async (user: { id: string; phone: string }) => {
    const tokens = await startSession({ db, now: () => new Date(), secret: JWT_SECRET }, user.phone);
    return {
      id: user.id,
      headers: { authorization: `Bearer ${tokens.token}` },
      familyId: decodeJwt(tokens.token).fam as string,
    };
  };
  const many = <T>(n: number, make: () => Promise<T>) => Promise.all(Array.from({ length: n }, make));

  await many(CANDIDATES, () => student("female"));
  const voters = await many(VOTERS, async () => signIn(await student("male")));
  const pastVoters = await many(PAST_VOTERS, () => student("male"));
  const recipients = await many(RECIPIENTS, async () =>
    signIn(await student("female", { remainingUnlocks: START_CREDITS })),
  );
  const prompt = await insertTestPrompt(db);
  await db
    .insert(votes)
    .values(
      recipients.flatMap((r) =>
        pastVoters.map((v) => ({ voterId: v.id, recipientId: r.id, promptId: prompt.id, ...deliveredAt() })),
      ),
    );
  const sentinels = await many(3, async () => signIn(await student("male")));
  return { voters, recipients, sentinels };
}

/** Every write the server answered 2xx is in the database it now writes to. */
async function expectAnsweredWritesKept(pg: postgres.Sql, written: ReturnType<typeof startLoad>["answered"]) {
  const voterIds = [...new Set(written.votes.map((v) => v.voterId))];
  const stored = await pg<{ key: string }[]>`
    select voter_id || '/' || recipient_id || '/' || prompt_id as key from votes where voter_id = any(${voterIds}::uuid[])`;
  const keys = new Set(stored.map((r) => r.key));
  expect(
    written.votes.filter((v) => !keys.has(`${v.voterId}/${v.recipientId}/${v.promptId}`)),
    "answered votes missing",
  ).toEqual([]);

  const sessions = await pg<{ phone: string }[]>`
    select distinct s.phone from auth_sessions s join consents c on c.phone = s.phone
    where s.phone = any(${written.signups}::text[])`;
  const signedUp = new Set(sessions.map((r) => r.phone));
  expect(
    written.signups.filter((p) => !signedUp.has(p)),
    "answered sign-ups without their session and consent",
  ).toEqual([]);

  const unlocked = await pg<{ key: string }[]>`
    select u.owner_id || '/' || v.id as key from unlocks u
    join votes v on v.recipient_id = u.owner_id and v.voter_id = u.voter_id
    where v.id = any(${written.unlocks.map((u) => u.voteId)}::uuid[])`;
  const unlockKeys = new Set(unlocked.map((r) => r.key));
  expect(
    written.unlocks.filter((u) => !unlockKeys.has(`${u.ownerId}/${u.voteId}`)),
    "answered unlocks missing",
  ).toEqual([]);

  const paid = await pg<{ client_secret: string }[]>`
    select p.client_secret from purchases p join payment_fulfilments f on f.purchase_id = p.id
    where p.status = 'succeeded' and p.client_secret = any(${written.payments}::text[])`;
  const paidSecrets = new Set(paid.map((r) => r.client_secret));
  expect(
    written.payments.filter((secret) => !paidSecrets.has(secret)),
    "answered payments not fulfilled",
  ).toEqual([]);
}

/** The rules the database keeps, checked on the new primary. */
async function expectInvariants(pg: postgres.Sql, world: World) {
  // Allowance: a voter's batch counts every vote they cast (none had voted before), never more than 12.
  const allowances = await pg<{ id: string; in_batch: number; cast: number }[]>`
    select u.id, coalesce(s.votes_in_batch, 0) as in_batch,
      (select count(*)::int from votes v where v.voter_id = u.id) as cast
    from users u left join voter_state s on s.user_id = u.id
    where u.id = any(${world.voters.map((v) => v.id)}::uuid[])`;
  expect(allowances.filter((a) => a.in_batch !== a.cast || a.cast > 12)).toEqual([]);

  // Credits: what a recipient started with, plus what they paid for, less what they unlocked; never below zero.
  const credits = await pg<{ id: string; remaining: number; bought: number; unlocked: number }[]>`
    select u.id, u.remaining_unlocks as remaining,
      (select count(*)::int from purchases p join payment_fulfilments f on f.purchase_id = p.id
        where p.user_id = u.id and p.product_id = 'unlock-3') as bought,
      (select count(*)::int from unlocks x where x.owner_id = u.id) as unlocked
    from users u where u.id = any(${world.recipients.map((r) => r.id)}::uuid[])`;
  for (const c of credits) {
    expect(c.remaining, `credits of ${c.id}`).toBe(START_CREDITS + UNLOCKS_A_PACKAGE * c.bought - c.unlocked);
    expect(c.remaining).toBeGreaterThanOrEqual(0);
  }

  // Unlocks reveal a voter who did vote for their owner; a purchase is fulfilled exactly when it succeeded.
  const [stray] = await pg<{ unlocks: number; payments: number }[]>`
    select
      (select count(*)::int from unlocks u where not exists
        (select 1 from votes v where v.recipient_id = u.owner_id and v.voter_id = u.voter_id)) as unlocks,
      (select count(*)::int from purchases p where (p.status = 'succeeded') <>
        exists (select 1 from payment_fulfilments f where f.purchase_id = p.id)) as payments`;
  expect(stray).toEqual({ unlocks: 0, payments: 0 });
}

/**
 * The sign-out and candidate-pool listeners are connected to the new primary,
 * and a sign-out announced there (NOTIFY alone, no row to reload) reaches the server.
 */
async function expectListenersOnPrimary(base: string, primaryUrl: string, sentinel: World["sentinels"][number]) {
  const primary = postgres(primaryUrl, { max: 1, onnotice: () => {} });
  try {
    await vi.waitFor(
      async () => {
        const rows = await primary<{ name: string }[]>`
          select distinct application_name as name from pg_stat_activity
          where application_name in ('quad-quad_session_revoked', 'quad-quad_candidate_pool') and query ilike 'listen%'`;
        expect(rows.map((r) => r.name).sort()).toEqual(["quad-quad_candidate_pool", "quad-quad_session_revoked"]);
      },
      { timeout: 15_000, interval: 250 },
    );
    const me = () => send(base, { path: "/api/users/me", headers: sentinel.headers });
    expect((await me()).status).toBe(200);
    await primary`select pg_notify('quad_session_revoked', ${sentinel.familyId})`;
    await vi.waitFor(async () => expect((await me()).status).toBe(401), { timeout: 5_000, interval: 100 });
  } finally {
    await primary.end({ timeout: 5 });
  }
}

import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDatabase, migrate, queryRows, type Database } from "@quad/db";
import { paymentFulfilments, purchases, users, votes } from "@quad/db/schema";
import { createDiskMediaSink, seed } from "@quad/db/seed";
import { deliveredAt, insertTestPrompt } from "@quad/db/testing";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, stopProcess, waitUntilAnswering } from "./test/processes";

// Backups are part of the product: seed, back up with the real CLI, wipe,
// restore with the real CLI, find the same rows, and start the server on it.

const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));
const DB_PACKAGE_DIR = path.resolve(SERVER_DIR, "../../packages/db");
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim() || undefined;
const TIMEOUT_MS = 300_000;
const CREDITS = 3;
const VOTES = 4;

/** The environment of a child process: this one's, minus what would point it at another database. */
function childEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "TEST_DATABASE_URL", "REDIS_URL", "JWT_SECRET"]) delete env[name];
  return { ...env, ...overrides };
}

/** Runs a @quad/db CLI as `pnpm db:backup` / `db:restore` do; answers its exit code and output. */
function dbCli(
  script: "backup" | "restore",
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", `src/cli/${script}.ts`, ...args], {
      cwd: DB_PACKAGE_DIR,
      env,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** Counts and a checksum of every row (in a stable order) of what a backup must keep. */
async function fingerprint(db: Database) {
  const tables = ["schools", "users", "votes", "purchases", "payment_fulfilments"] as const;
  const result = {} as Record<(typeof tables)[number], { rows: number; md5: string }>;
  for (const table of tables) {
    const [row] = await queryRows<{ rows: number; md5: string }>(
      db,
      sql.raw(
        `select count(*)::int as rows, coalesce(md5(string_agg(t::text, E'\\n' order by t::text)), '') as md5 from ${table} t`,
      ),
    );
    result[table] = row!;
  }
  const [credits] = await queryRows<{ total: number }>(
    db,
    sql`select coalesce(sum(remaining_unlocks), 0)::int as total from users`,
  );
  return { ...result, credits: credits!.total };
}

/** The demo seed, plus votes for one student who bought unlock credits and can sign in. Answers that student's phone. */
async function seedWithVotesAndAPayment(db: Database, dataDir: string): Promise<string> {
  await migrate(db);
  const seeded = await seed(db, {
    demo: true,
    media: createDiskMediaSink(path.join(dataDir, "media")),
    demoStudentsPerSchool: 10,
  });
  expect(seeded.demoStudents).toBeGreaterThan(0);
  const students = await db
    .select({ id: users.id, phone: users.phone, schoolId: users.schoolId })
    .from(users)
    .limit(VOTES + 1);
  const [recipient, ...voters] = students;
  const prompt = await insertTestPrompt(db);
  await db
    .insert(votes)
    .values(
      voters.map((voter) => ({ voterId: voter.id, recipientId: recipient!.id, promptId: prompt.id, ...deliveredAt() })),
    );
  const [purchase] = await db
    .insert(purchases)
    .values({
      userId: recipient!.id,
      productId: "unlock_3",
      kind: "unlock",
      amountCents: 499,
      provider: "local",
      providerPaymentId: `pi_backup_${Date.now()}`,
      status: "succeeded",
      fulfilledAt: new Date(),
    })
    .returning();
  await db
    .insert(paymentFulfilments)
    .values({ providerPaymentId: purchase!.providerPaymentId, purchaseId: purchase!.id });
  // Demo students' numbers (+1 555 …) are not valid US numbers, so no one can sign in as them; give this one a real-looking number.
  const phone = "+12025550187";
  await db.update(users).set({ remainingUnlocks: CREDITS, phone }).where(eq(users.id, recipient!.id));
  return phone;
}

/** Starts the real server on the restored database; signs the student in over HTTP and reads their credits and votes. */
async function startServerAndReadStudent(env: NodeJS.ProcessEnv, phone: string, logName: string) {
  const port = await freePort();
  const logs = path.join(SERVER_DIR, "reports");
  await mkdir(logs, { recursive: true });
  const child = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
    cwd: SERVER_DIR,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...env,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      JOBS_ENABLED: "false",
      SEED_DEMO: "false",
      LOG_LEVEL: "warn",
    },
  });
  const log = createWriteStream(path.join(logs, logName));
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  try {
    const base = `http://127.0.0.1:${port}/api`;
    await waitUntilAnswering(`${base}/health`, child, 120_000);
    const post = (route: string, body: unknown) =>
      fetch(`${base}${route}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const sent = await post("/auth/send-code", { phone });
    expect(sent.status).toBe(200);
    const { codeRequestId } = (await sent.json()) as { codeRequestId: string };
    const outbox = (await (await fetch(`${base}/dev/sms-outbox?phone=${encodeURIComponent(phone)}`)).json()) as {
      messages: { body: string }[];
    };
    const code = outbox.messages[0]?.body.match(/\b(\d{6})\b/)?.[1];
    const verified = await post("/auth/verify-code", { phone, code, codeRequestId });
    expect(verified.status).toBe(200);
    const { token } = (await verified.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const me = (await (await fetch(`${base}/users/me`, { headers })).json()) as Record<string, unknown>;
    const page = (await (await fetch(`${base}/votes/for-user?limit=50`, { headers })).json()) as { votes: unknown[] };
    return { me, votes: page.votes.length };
  } finally {
    await stopProcess(child);
  }
}

describe("backup and restore of the embedded database", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "quad-backup-pglite-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it(
    "seed, back up, wipe, restore: the same students, votes, payments and credits, and the server starts on it",
    { timeout: TIMEOUT_MS },
    async () => {
      const pgliteDir = path.join(dataDir, "pglite");
      const env = childEnv({ DATA_DIR: dataDir });
      const file = path.join(dataDir, "backups", "demo.tar.gz");

      const source = await createDatabase({ dataDir: pgliteDir });
      const phone = await seedWithVotesAndAPayment(source.db, dataDir);
      const before = await fingerprint(source.db);
      // Never a copy of a directory a running server is writing to.
      const whileOpen = await dbCli("backup", ["--out", file], env);
      expect(whileOpen.code).toBe(1);
      expect(whileOpen.output).toMatch(/is in use \(postmaster\.pid\): stop the server first/);
      await source.close();

      const backup = await dbCli("backup", ["--out", file], env);
      expect(backup.output).toMatch(/backed up to/);
      expect(backup.code).toBe(0);
      expect((await stat(file)).size).toBeGreaterThan(0);
      // Every student's phone is in it: owner-only, whatever the umask.
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);

      // A restore never overwrites a database by accident.
      const refused = await dbCli("restore", [file], env);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/already holds a database: restore refuses to overwrite it \(pass --force/);

      await rm(pgliteDir, { recursive: true, force: true });
      const restore = await dbCli("restore", [file], env);
      expect(restore.output).toMatch(/restored/);
      expect(restore.code).toBe(0);

      const restored = await createDatabase({ dataDir: pgliteDir });
      try {
        expect(await fingerprint(restored.db)).toEqual(before);
        expect(before.votes.rows).toBe(VOTES);
        expect(before.purchases.rows).toBe(1);
        expect(before.credits).toBe(CREDITS);
      } finally {
        await restored.close();
      }

      const { me, votes: received } = await startServerAndReadStudent(env, phone, "backup-pglite-server.log");
      expect(JSON.stringify(me)).toContain(`"remainingUnlocks":${CREDITS}`);
      expect(received).toBe(VOTES);
    },
  );
});

describe.skipIf(!serverUrl)("backup and restore on PostgreSQL (pg_dump custom format)", () => {
  const name = `quad_backup_${process.pid}_${Date.now().toString(36)}`;
  let admin: postgres.Sql;
  let url: string;
  let dataDir: string;
  beforeAll(async () => {
    admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const u = new URL(serverUrl!);
    u.pathname = `/${name}`;
    url = u.toString();
    dataDir = await mkdtemp(path.join(tmpdir(), "quad-backup-pg-"));
  });
  afterAll(async () => {
    await admin?.unsafe(`drop database if exists "${name}" with (force)`);
    await admin?.end({ timeout: 5 });
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(
    "seed, back up, drop the database, restore: the same rows, and the server starts on it",
    { timeout: TIMEOUT_MS },
    async () => {
      const env = childEnv({ DATA_DIR: dataDir, DATABASE_URL: url });
      const file = path.join(dataDir, "backups", "demo.pgdump");

      const source = await createDatabase({ url, poolSize: 2 });
      const phone = await seedWithVotesAndAPayment(source.db, dataDir);
      const before = await fingerprint(source.db);
      await source.close();

      const backup = await dbCli("backup", ["--out", file], env);
      expect(backup.output).toMatch(/backed up to/);
      expect(backup.code).toBe(0);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);

      const refused = await dbCli("restore", [file], env);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/is not empty .*restore refuses to overwrite it/);

      // Wiped: the restore creates the database again, through a URL that lists a primary and its
      // standby as a high-availability deployment's does (here a host that refuses, then this one).
      await admin.unsafe(`drop database "${name}" with (force)`);
      const u = new URL(url);
      const credentials = `${u.username}${u.password ? `:${u.password}` : ""}@`;
      const multiHost = `postgres://${credentials}127.0.0.1:1,${u.host}${u.pathname}?target_session_attrs=read-write`;
      const restore = await dbCli("restore", [file], { ...env, DATABASE_URL: multiHost });
      expect(restore.output).toMatch(/restored/);
      expect(restore.code).toBe(0);

      const restored = await createDatabase({ url, poolSize: 2 });
      try {
        expect(await fingerprint(restored.db)).toEqual(before);
        expect(before.votes.rows).toBe(VOTES);
        expect(before.credits).toBe(CREDITS);
      } finally {
        await restored.close();
      }

      const { me, votes: received } = await startServerAndReadStudent(env, phone, "backup-postgres-server.log");
      expect(JSON.stringify(me)).toContain(`"remainingUnlocks":${CREDITS}`);
      expect(received).toBe(VOTES);
    },
  );
});

import { randomBytes } from "node:crypto";
import { createDatabase } from "@quad/db";
import { insertTestSchool, insertTestUser } from "@quad/db/testing";
import postgres from "postgres";
import { startSession } from "../modules/auth/sessions";
import { startHaCluster } from "../test/ha-cluster";
import { send, startServerProcess, type ServerProcess } from "../test/server-process";

/**
 * What the synchronous standby costs a vote (docs/operations.md "High
 * availability"): one pg_auto_failover primary and its standby on this
 * machine (deploy/ha/local-cluster.sh), two server processes on it whose
 * sessions commit with synchronous_commit=on (the answer waits for the
 * standby's disk, as in production) and =local (the primary's own disk only:
 * what a single node pays), and closed-loop voters on each in turn. Run by
 * hand, it prints one line per window and a summary. The same is measured
 * for the commit alone (one-row inserts from 1 and from LANES connections),
 * which a busy machine blurs less than the whole request:
 *
 *   cd apps/server && node --import tsx src/perf/sync-commit-cost.ts [seconds=6] [lanes=8] [rounds=3]
 */
const [SECONDS = 6, LANES = 8, ROUNDS = 3] = process.argv.slice(2).map(Number);
const VOTERS = 600;
const JWT_SECRET = randomBytes(32).toString("hex");

interface Window {
  mode: string;
  /** Votes or commits. */
  votes: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main() {
  const cluster = await startHaCluster();
  const servers: ServerProcess[] = [];
  try {
    const handle = await createDatabase({ url: cluster.url, poolSize: 4 });
    const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
    const modes = { on: cluster.url, local: `${cluster.url}&synchronous_commit=local` };
    for (const url of Object.values(modes))
      // eslint-disable-next-line no-restricted-syntax -- run by hand: its servers get this shell's environment, as the tests' do
      servers.push(await startServerProcess(process.env, { DATABASE_URL: url, JWT_SECRET }));
    const school = await insertTestSchool(handle.db);
    const student = (gender: "male" | "female") =>
      insertTestUser(handle.db, { schoolId: school.id, gender, preference: gender === "male" ? "female" : "male" });
    await Promise.all(Array.from({ length: 30 }, () => student("female")));
    const voters = await Promise.all(
      Array.from({ length: VOTERS }, async () => {
        const user = await student("male");
        const tokens = await startSession({ db: handle.db, now: () => new Date(), secret: JWT_SECRET }, user.phone);
        return { authorization: `Bearer ${tokens.token}` };
      }),
    );

    const windows: Window[] = [];
    await admin`create table if not exists sync_commit_probe (id bigserial primary key, at timestamptz default now())`;
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of ["on", "local"] as const) {
        for (const lanes of [1, LANES]) {
          windows.push(await commits(modes[mode], `commit×${lanes} ${mode}`, lanes));
          print(windows.at(-1)!);
        }
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [mode, i] of [
        ["on", 0],
        ["local", 1],
      ] as const) {
        // A fresh allowance for everyone, as after the cooldown hour.
        await admin`update voter_state set votes_in_batch = 0, cooldown_until = null`;
        windows.push(await measure(servers[i]!.base, `vote ${mode}`, voters));
        print(windows.at(-1)!);
      }
    }
    // Medians over the rounds: one busy moment on a shared machine moves a mean.
    for (const mode of [...new Set(windows.map((w) => w.mode))]) {
      const mine = windows.filter((w) => w.mode === mode);
      const median = (key: keyof Omit<Window, "mode">) =>
        mine.map((w) => w[key]).sort((a, b) => a - b)[mine.length >> 1]!;
      print({
        mode: `median of ${mine.length}, ${mode}`,
        votes: median("votes"),
        perSecond: median("perSecond"),
        p50: median("p50"),
        p95: median("p95"),
        p99: median("p99"),
      });
    }
    await admin`drop table sync_commit_probe`;
    await admin.end();
    await handle.close();
  } finally {
    for (const server of servers) await server.stop();
    await cluster.destroy();
  }
}

function print(w: Window) {
  console.log(
    `${w.mode}: ${w.votes} done, ${w.perSecond.toFixed(0)}/s, p50 ${w.p50.toFixed(2)} ms, p95 ${w.p95.toFixed(2)} ms, p99 ${w.p99.toFixed(2)} ms`,
  );
}

function summary(mode: string, latencies: number[], seconds: number): Window {
  latencies.sort((a, b) => a - b);
  return {
    mode,
    votes: latencies.length,
    perSecond: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
  };
}

/** One-row inserts, each its own transaction, from `lanes` connections for SECONDS. */
async function commits(url: string, mode: string, lanes: number): Promise<Window> {
  const pg = postgres(url, { max: lanes, onnotice: () => {} });
  await Promise.all(Array.from({ length: lanes }, () => pg`select 1`));
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await pg`insert into sync_commit_probe default values`;
        latencies.push(performance.now() - t);
      }
    }),
  );
  await pg.end();
  return summary(mode, latencies, (performance.now() - started) / 1000);
}

/** LANES voters at a time, each opening a round and voting in it, for SECONDS; the vote requests are timed. */
async function measure(base: string, mode: string, voters: Record<string, string>[]): Promise<Window> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const end = started + SECONDS * 1000;
  const lane = async () => {
    while (performance.now() < end) {
      const headers = voters[next++ % voters.length]!;
      const round = await send(base, { path: "/api/prompts/random?skip=false", headers });
      const opened =
        round.status === 200 ? (JSON.parse(round.body) as { prompt?: { id: number }; users?: { id: string }[] }) : {};
      if (!opened.prompt || !opened.users) continue;
      const body = { userId: opened.users[0]!.id, promptId: opened.prompt.id };
      const vote = await send(base, { path: "/api/votes/store", body, headers });
      if (vote.status === 200) latencies.push(vote.ms);
    }
  };
  await Promise.all(Array.from({ length: LANES }, lane));
  return summary(mode, latencies, (performance.now() - started) / 1000);
}

await main();

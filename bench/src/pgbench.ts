import { execFile } from "node:child_process";
import { promisify } from "node:util";
import postgres from "postgres";
import { TICKS_PER_S, childrenTicks, machineBusyTicks } from "./cpu";

const run = promisify(execFile);

/** pgbench's own database in the bench's cluster, at scale 10 (1,000,000 accounts). */
export const PGBENCH_SCALE = 10;

export interface PgbenchResult {
  script: "tpcb-like" | "simple-update";
  tps: number;
  latencyMs: number;
  /** CPU µs per transaction (cpu.ts measures the app's requests the same way), when measured. */
  cpuUs?: TransactionCpu;
}

/**
 * A transaction's CPU: pgbench's own, and the rest of the machine's while it
 * ran (Postgres' backends, which exit with the run, before the bench's
 * per-process sampling could read them; on an otherwise idle machine).
 */
export interface TransactionCpu {
  postgres: number;
  pgbench: number;
}

/** CPU µs per transaction from tick counts read around a run. */
export function transactionCpu(run: { busyTicks: number; pgbenchTicks: number; transactions: number }): TransactionCpu {
  const us = (ticks: number) => (ticks * 1e6) / TICKS_PER_S / run.transactions;
  return { postgres: us(run.busyTicks - run.pgbenchTicks), pgbench: us(run.pgbenchTicks) };
}

function connectionArgs(url: URL): string[] {
  return ["-h", url.hostname, "-p", url.port || "5432", "-U", decodeURIComponent(url.username || "postgres")];
}

/**
 * Creates `<name>_pgbench` next to the bench's database and initialises it at
 * scale 10 unless a previous run did (pgbench_branches then has 10 rows).
 * Returns the database's URL.
 */
export async function preparePgbench(benchUrl: string, log: (line: string) => void): Promise<URL> {
  const url = new URL(benchUrl);
  const name = `${url.pathname.replace(/^\//, "") || "quad_bench"}_pgbench`;
  const admin = postgres({
    host: url.hostname,
    port: Number(url.port || 5432),
    user: url.username || "postgres",
    database: "postgres",
    max: 1,
    onnotice: () => {},
  });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
    if (!exists) await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  const sql = postgres(target.toString(), { max: 1, onnotice: () => {} });
  let ready: boolean;
  try {
    const [row] = await sql<{ branches: number }[]>`
      select (select count(*) from pgbench_branches)::int as branches
      where to_regclass('pgbench_branches') is not null`.catch(() => []);
    ready = row?.branches === PGBENCH_SCALE;
  } finally {
    await sql.end({ timeout: 5 });
  }
  if (!ready) {
    log(`pgbench: initialising ${name} at scale ${PGBENCH_SCALE}`);
    await run("pgbench", ["-i", "-q", "-s", String(PGBENCH_SCALE), ...connectionArgs(target), name], {
      maxBuffer: 16 * 1024 * 1024,
    });
  }
  return target;
}

/**
 * One pgbench run of a built-in script, prepared statements, two threads, at
 * the bench's connection count: the textbook write transaction sent straight
 * to Postgres, the anchor the app's write paths are held against.
 */
export async function runPgbench(
  target: URL,
  opts: { script: PgbenchResult["script"]; clients: number; durationS: number },
): Promise<PgbenchResult> {
  const name = target.pathname.replace(/^\//, "");
  const busyBefore = machineBusyTicks();
  const childrenBefore = childrenTicks();
  const { stdout } = await run(
    "pgbench",
    [
      "-b",
      opts.script,
      "-M",
      "prepared",
      "-j",
      "2",
      "-c",
      String(opts.clients),
      "-T",
      String(opts.durationS),
      "-n",
      ...connectionArgs(target),
      name,
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1]);
  if (!Number.isFinite(tps)) throw new Error(`pgbench printed no tps:\n${stdout}`);
  const transactions = Number(/transactions actually processed: (\d+)/.exec(stdout)?.[1]);
  const cpuUs =
    transactions > 0
      ? transactionCpu({
          busyTicks: machineBusyTicks() - busyBefore,
          pgbenchTicks: childrenTicks() - childrenBefore,
          transactions,
        })
      : undefined;
  return { script: opts.script, tps, latencyMs, cpuUs };
}

/** `runs` runs of a script, one after another; the one with the median tps, and every run's tps. */
export async function runPgbenchMedian(
  target: URL,
  opts: { script: PgbenchResult["script"]; clients: number; durationS: number; runs?: number },
): Promise<PgbenchResult & { runs: number[] }> {
  const results: PgbenchResult[] = [];
  for (let i = 0; i < (opts.runs ?? 3); i++) results.push(await runPgbench(target, opts));
  return { ...medianByTps(results), runs: results.map((r) => r.tps) };
}

/** The middle result by tps (the upper middle of an even count). */
export function medianByTps(results: readonly PgbenchResult[]): PgbenchResult {
  if (results.length === 0) throw new Error("medianByTps: no results");
  return [...results].sort((a, b) => a.tps - b.tps)[Math.floor(results.length / 2)]!;
}

/**
 * Where PostgreSQL's CPU goes during one profiled case: Linux `perf` sampling
 * the server's own backends (application_name "quad", so neither the bench's
 * bookkeeping queries nor other databases count), then the functions with the
 * most self time and the executor phases with the most inclusive time.
 * Needs `perf` (Debian: `apt-get install linux-perf`) and root or
 * kernel.perf_event_paranoid ≤ 1. Postgres' exported symbols name most frames;
 * static functions show as addresses.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { Sql } from "postgres";

export interface PgPerf {
  stop(): Promise<void>;
  /** Prints the report; the raw data stays in `dir` for `perf report -i`. */
  summarize(log: (line: string) => void): void;
}

export function perfAvailable(): boolean {
  return spawnSync("perf", ["--version"], { stdio: "ignore" }).status === 0;
}

export async function startPgPerf(sql: Sql, dir: string): Promise<PgPerf> {
  const rows = await sql<{ pid: number }[]>`
    select pid from pg_stat_activity where application_name = 'quad' and datname = current_database()`;
  if (rows.length === 0) throw new Error("pg-perf: no server backends (application_name 'quad') to sample");
  const file = path.join(dir, "postgres.perf.data");
  const child: ChildProcess = spawn(
    "perf",
    ["record", "-F", "999", "-g", "-o", file, "-p", rows.map((r) => r.pid).join(",")],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGINT");
      }),
    summarize(log) {
      if (!stderr.includes("Captured and wrote"))
        return log(`pg-perf: perf record failed: ${stderr.trim().split("\n").pop()}`);
      const report = (extra: string[]) =>
        spawnSync("perf", ["report", "-i", file, "--stdio", "-g", "none", "--sort", "sym", ...extra], {
          encoding: "utf8",
          maxBuffer: 64 << 20,
        })
          .stdout.split("\n")
          .filter((line) => line.trim() && !line.startsWith("#"));
      log(`PostgreSQL self time by function (${rows.length} backends; ${file}):`);
      for (const line of report(["--no-children"]).slice(0, 25)) console.log(line);
      // Inclusive time of the named phases a statement goes through.
      const phases =
        /\b(standard_ExecutorStart|standard_ExecutorRun|standard_ExecutorFinish|AfterTriggerEndQuery|ExecInsertIndexTuples|CommitTransactionCommand|XLogFlush|GetCachedPlan|exec_bind_message|heap_getnextslot|index_getnext_slot|pq_getbyte|secure_write|secure_read)\b/;
      log("PostgreSQL inclusive time of statement phases:");
      for (const line of report(["--children"]).filter((l) => phases.test(l))) console.log(line);
    },
  };
}

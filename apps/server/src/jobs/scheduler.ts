import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Database } from "@quad/db";
import { jobRuns } from "@quad/db/schema";
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";

export interface JobDefinition {
  /** Primary key in job_runs: one schedule per name, shared by every process. */
  name: string;
  intervalMs: number;
  /** Aborted on shutdown: stop taking on new work. */
  run(signal: AbortSignal): Promise<void>;
}

export interface JobLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobSchedulerOptions {
  db: Database;
  jobs: readonly JobDefinition[];
  now: () => Date;
  log: JobLogger;
  /** How often each process looks for a due job; a run starts at most this late. */
  tickMs?: number;
  /** Names this process in job_runs.last_run_by. */
  instanceId?: string;
}

export interface JobScheduler {
  /** Ticks every tickMs on an unref'd timer (it never keeps the process alive). */
  start(): void;
  /** Stops ticking, aborts the running job's signal and waits for it to return. */
  stop(): Promise<void>;
  /** Claims and runs every due job once; answers the names this process ran. For tests and start(). */
  tick(): Promise<string[]>;
}

export const DEFAULT_TICK_MS = 20_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * A Postgres-backed scheduler: each job runs once per interval however many
 * server processes tick. Every process ticks; a run is claimed with one
 * conditional UPDATE on the job's row (`next_run_at <= now` and no live
 * lease), which exactly one caller can win, on Postgres and on PGlite.
 *
 * The claim moves next_run_at one interval on (or to now + interval after
 * downtime, so missed runs are not replayed) and takes a lease for the
 * length of an interval; finishing releases it. A process that dies mid-run
 * holds the lease until it expires, then the job runs again.
 */
export function createJobScheduler(opts: JobSchedulerOptions): JobScheduler {
  const { db, jobs, now, log } = opts;
  const tickMs = opts.tickMs ?? DEFAULT_TICK_MS;
  const instanceId = opts.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const known = new Set<string>();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<unknown> | undefined;

  async function ensureRow(job: JobDefinition, at: Date) {
    if (known.has(job.name)) return;
    // A new job is due at once; an existing row keeps its schedule.
    await db.insert(jobRuns).values({ name: job.name, nextRunAt: at }).onConflictDoNothing();
    known.add(job.name);
  }

  async function claim(job: JobDefinition, at: Date): Promise<boolean> {
    const interval = sql`(${job.intervalMs} * interval '1 millisecond')`;
    const atSql = sql`${at.toISOString()}::timestamptz`;
    const rows = await db
      .update(jobRuns)
      .set({
        nextRunAt: sql`case when ${jobRuns.nextRunAt} + ${interval} > ${atSql}
          then ${jobRuns.nextRunAt} + ${interval} else ${atSql} + ${interval} end`,
        leaseUntil: new Date(at.getTime() + job.intervalMs),
        lastStartedAt: at,
        lastRunBy: instanceId,
      })
      .where(
        and(
          eq(jobRuns.name, job.name),
          lte(jobRuns.nextRunAt, at),
          or(isNull(jobRuns.leaseUntil), lte(jobRuns.leaseUntil, at)),
        ),
      )
      .returning({ name: jobRuns.name });
    return rows.length > 0;
  }

  async function release(job: JobDefinition, startedAt: Date, error: unknown) {
    await db
      .update(jobRuns)
      .set({ leaseUntil: null, lastFinishedAt: now(), lastError: error === undefined ? null : messageOf(error) })
      .where(and(eq(jobRuns.name, job.name), eq(jobRuns.lastRunBy, instanceId), eq(jobRuns.lastStartedAt, startedAt)));
  }

  async function tick(): Promise<string[]> {
    const ran: string[] = [];
    for (const job of jobs) {
      if (controller.signal.aborted) break;
      const at = now();
      await ensureRow(job, at);
      if (!(await claim(job, at))) continue;
      ran.push(job.name);
      let failure: unknown;
      try {
        await job.run(controller.signal);
      } catch (error) {
        failure = error;
        log.error({ err: error, job: job.name }, "job failed");
      }
      await release(job, at, failure);
    }
    return ran;
  }

  /** From the timer: never two ticks at once in one process, and never an unhandled rejection. */
  function tickInBackground() {
    if (ticking) return;
    ticking = tick()
      .catch((error: unknown) => log.error({ err: error }, "job tick failed"))
      .finally(() => {
        ticking = undefined;
      });
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(tickInBackground, tickMs);
      timer.unref();
      tickInBackground();
      log.info({ jobs: jobs.map((j) => j.name), tickMs, instanceId }, "job scheduler started");
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      controller.abort();
      await ticking;
    },
    tick,
  };
}

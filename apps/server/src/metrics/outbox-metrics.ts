import { queryRows, type Database } from "@quad/db";
import { sql, type SQL } from "drizzle-orm";
import { Gauge } from "prom-client";
import { databaseAnswers, withinHealthTimeout } from "../modules/health/service";
import { registry } from "./registry";

/** What waits to be sent, per channel. */
const WAITING: Record<string, SQL> = {
  sms: sql`select count(*)::int as n, min(created_at) as oldest from sms_outbox where status = 'queued'`,
  push: sql`select count(*)::int as n, min(created_at) as oldest from push_deliveries where status = 'queued'`,
  // An e-mail is written as it is sent: one still "sending" is one the relay has not taken yet.
  email: sql`select count(*)::int as n, min(created_at) as oldest from email_outbox where status = 'sending'`,
};

/**
 * One read shared by the gauges of one scrape (prom-client collects a scrape's
 * metrics together), given the time readiness gives the database: an
 * unreachable or saturated database costs the scrape under a second, and its
 * gauges only, never the other series.
 */
function perScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= withinHealthTimeout(read()).finally(() => {
      pending = undefined;
    }));
}

/**
 * A gauge of the process's registry, replacing one of the same name (the app
 * built again, as tests do). When its read fails the gauge is left out of that
 * scrape: an old value would say the outbox or a job is fine when nobody knows.
 */
function gauge(name: string, help: string, labels: string[], collect: (g: Gauge) => Promise<void>) {
  registry.removeSingleMetric(name);
  return new Gauge({
    name,
    help,
    labelNames: labels,
    registers: [registry],
    async collect() {
      this.reset();
      await collect(this).catch(() => this.reset());
    },
  });
}

/**
 * Gauges read from the database when Prometheus scrapes: whether it answers
 * this process at all (readiness's check), each channel's outbox depth and
 * its oldest waiting item's age, and each job's last finished run and whether
 * it failed (labelled `scheduled_job`: Prometheus' own `job` label names the
 * scrape, and would push ours aside as `exported_job`).
 */
export function registerDatabaseGauges(db: Database, now: () => Date): void {
  gauge(
    "quad_database_reachable",
    "1 when the database answered this process's select 1 within readiness's 0.8 s at the scrape, else 0",
    [],
    async (g) => {
      g.set(
        await withinHealthTimeout(databaseAnswers(db)).then(
          () => 1,
          () => 0,
        ),
      );
    },
  );
  const waiting = perScrape(async () =>
    Promise.all(
      Object.entries(WAITING).map(async ([channel, query]) => {
        const [row] = await queryRows<{ n: number; oldest: string | Date | null }>(db, query);
        const since = row?.oldest ? new Date(row.oldest).getTime() : null;
        return { channel, n: row?.n ?? 0, ageSeconds: since === null ? 0 : (now().getTime() - since) / 1000 };
      }),
    ),
  );
  const jobs = perScrape(() =>
    queryRows<{ name: string; last_finished_at: string | Date | null; last_error: string | null }>(
      db,
      sql`select name, last_finished_at, last_error from job_runs`,
    ),
  );
  gauge("quad_outbox_waiting", "Notifications waiting to be sent, by channel", ["channel"], async (g) => {
    for (const { channel, n } of await waiting()) g.set({ channel }, n);
  });
  gauge(
    "quad_outbox_oldest_waiting_seconds",
    "Age of the oldest notification waiting to be sent, by channel (0 when none waits)",
    ["channel"],
    async (g) => {
      for (const { channel, ageSeconds } of await waiting()) g.set({ channel }, Math.max(0, ageSeconds));
    },
  );
  gauge(
    "quad_job_last_finished_timestamp_seconds",
    "When each job last finished a run (Unix seconds)",
    ["scheduled_job"],
    async (g) => {
      for (const row of await jobs()) {
        if (row.last_finished_at) g.set({ scheduled_job: row.name }, new Date(row.last_finished_at).getTime() / 1000);
      }
    },
  );
  gauge("quad_job_last_run_failed", "1 when the job's last run ended in an error", ["scheduled_job"], async (g) => {
    for (const row of await jobs()) g.set({ scheduled_job: row.name }, row.last_error ? 1 : 0);
  });
}

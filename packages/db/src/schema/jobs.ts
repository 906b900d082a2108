import { pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

/**
 * One row per periodic job. However many server processes tick, a run is
 * claimed with one conditional UPDATE (`where next_run_at <= now and the
 * lease is free`): exactly one process wins each interval.
 */
export const jobRuns = pgTable("job_runs", {
  name: text("name").primaryKey(),
  nextRunAt: timestamptz("next_run_at").notNull(),
  /** Held while a run is in progress, so a slow run is not overlapped; a crashed holder's lease expires. */
  leaseUntil: timestamptz("lease_until"),
  lastStartedAt: timestamptz("last_started_at"),
  lastFinishedAt: timestamptz("last_finished_at"),
  /** Which process ran it last (host and pid), for operators. */
  lastRunBy: text("last_run_by"),
  lastError: text("last_error"),
});

export type JobRun = typeof jobRuns.$inferSelect;
export type NewJobRun = typeof jobRuns.$inferInsert;

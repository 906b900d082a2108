import type { Database } from "@quad/db";
import { type pushDeliveries, type smsOutbox } from "@quad/db/schema";
import { FALLBACK_TIME_ZONE, isQuietHour } from "./local-time";
import { and, asc, eq, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";

/**
 * What the SMS and push queues share: each row of an outbox table is sent at
 * most once. A sender claims a due row (queued → sending) with a conditional
 * UPDATE just before handing it to the provider, so of several senders
 * exactly one gets it and a crash strands only those in flight; a row left
 * "sending" past the timeout is failed, never resent; a retryable failure
 * puts the row back in the queue after a back-off, up to maxAttempts.
 */
export const OUTBOX = {
  /** Retryable failures are tried this many times in all, then the row is failed. */
  maxAttempts: 4,
  /** 5, 10, 20 minutes... before the next attempt (and the job runs every 10). */
  retryBaseDelayMs: 5 * 60 * 1000,
  retryMaxDelayMs: 60 * 60 * 1000,
  /**
   * A row still "sending" this long after its claim was interrupted (a
   * crash, a deploy): whether the provider accepted it is unknown, so it is
   * failed, never resent. Far longer than a provider request may take.
   */
  sendingTimeoutMs: 5 * 60 * 1000,
  batchSize: 100,
  /** Provider calls in flight at once. */
  concurrency: 4,
} as const;

export function retryDelayMs(attempts: number): number {
  return Math.min(OUTBOX.retryMaxDelayMs, OUTBOX.retryBaseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/** Runs fn over items, `limit` at a time; once signal is aborted, starts no more. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal?.aborted) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

type OutboxTable = typeof smsOutbox | typeof pushDeliveries;
interface OutboxSet {
  status: "queued" | "sent" | "failed";
  lastError: string | null;
  sentAt?: Date;
  nextAttemptAt?: Date;
  providerMessageId?: string | null;
}

/** The queue operations on one outbox table. */
export function outbox(db: Database, table: OutboxTable) {
  /** Queued and not waiting for a retry's time. */
  const isDue = (now: Date) =>
    and(eq(table.status, "queued"), or(isNull(table.nextAttemptAt), lte(table.nextAttemptAt, now)));
  // The two tables' update builders differ only in the table; one of them serves the types.
  const update = (set: OutboxSet | Record<string, unknown>) =>
    db.update(table as typeof smsOutbox).set(set as Partial<typeof smsOutbox.$inferInsert>);

  /** Records the outcome of a claimed row (still "sending"). */
  const finish = async (id: string, set: OutboxSet): Promise<void> => {
    await update(set).where(and(eq(table.id, id), eq(table.status, "sending")));
  };

  return {
    finish,

    /**
     * One run of a sender: fails the rows left "sending" past the timeout
     * (answers how many), then hands `send` the due rows in keyset order
     * over (created_at, id), a batch at a time, until none is left or signal
     * is aborted. Rows `quiet` says are in their student's quiet hours are
     * held back and passed over, not re-read forever.
     */
    async drain<Row extends { id: string; timeZone: string | null }>(
      deps: { now: () => Date; signal?: AbortSignal },
      /** The rows `where` picks, in `order`, `limit` of them at the most. */
      select: (where: SQL | undefined, order: SQL[], limit: number) => Promise<Row[]>,
      send: (sendable: Row[]) => Promise<void>,
      quiet: (row: Row) => boolean = () => true,
    ): Promise<number> {
      const abandoned = await update({
        status: "failed",
        lastError: "interrupted while sending: outcome unknown, not resent",
      })
        .where(
          and(
            eq(table.status, "sending"),
            lt(table.claimedAt, new Date(deps.now().getTime() - OUTBOX.sendingTimeoutMs)),
          ),
        )
        .returning({ id: table.id });

      let cursor: string | undefined;
      while (!deps.signal?.aborted) {
        const now = deps.now();
        const due = await select(
          and(
            isDue(now),
            // Compared with the stored row, not a JS Date: timestamps keep microseconds, Dates do not.
            cursor
              ? sql`(${table.createdAt}, ${table.id}) > (select c.created_at, c.id from ${table} c where c.id = ${cursor})`
              : undefined,
          ),
          [asc(table.createdAt), asc(table.id)],
          OUTBOX.batchSize,
        );
        if (due.length === 0) break;
        cursor = due[due.length - 1]!.id;
        const sendable = due.filter((row) => !(quiet(row) && isQuietHour(now, row.timeZone ?? FALLBACK_TIME_ZONE)));
        if (sendable.length > 0) await send(sendable);
        if (due.length < OUTBOX.batchSize) break;
      }
      return abandoned.length;
    },

    /**
     * Claims a row that is still due (another sender may have tried it since
     * it was read, and put it back for later): answers its attempts so far,
     * this one counted, or null when another sender has it.
     */
    async claim(id: string, now: Date): Promise<number | null> {
      const [claimed] = await update({ status: "sending", claimedAt: now, attempts: sql`${table.attempts} + 1` })
        .where(and(eq(table.id, id), isDue(now)))
        .returning({ attempts: table.attempts });
      return claimed ? claimed.attempts : null;
    },

    /**
     * After a failed send: back in the queue after the back-off while it is
     * retryable and attempts are left, failed otherwise. Answers which.
     */
    async settleFailure(
      id: string,
      attempts: number,
      failure: { retryable: boolean; message: string },
      now: Date,
    ): Promise<"retrying" | "failed"> {
      if (failure.retryable && attempts < OUTBOX.maxAttempts) {
        await finish(id, {
          status: "queued",
          lastError: failure.message,
          nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
        });
        return "retrying";
      }
      await finish(id, { status: "failed", lastError: failure.message });
      return "failed";
    },
  };
}

import type { Database } from "@quad/db";
import { schools, smsOutbox, users, type SmsStatus } from "@quad/db/schema";
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { recordSmsKeywordConsent, smsAllowedPhones } from "../consents/service";
import { FALLBACK_TIME_ZONE, isQuietHour } from "../notifications/local-time";
import { errorText, SmsDeliveryError, type SmsKind, type SmsProvider } from "./sender";

export const SMS_QUEUE = {
  /** Provider failures are retried this many times in all, then the message is failed. */
  maxAttempts: 4,
  /** 5, 10, 20 minutes... before the next attempt (and the job runs every 10). */
  retryBaseDelayMs: 5 * 60 * 1000,
  retryMaxDelayMs: 60 * 60 * 1000,
  /**
   * A message still "sending" this long after its claim was interrupted (a
   * crash, a deploy): whether the provider accepted it is unknown, so it is
   * failed, never resent. Far longer than a provider request may take.
   */
  sendingTimeoutMs: 5 * 60 * 1000,
  batchSize: 100,
  /** Provider calls in flight at once. */
  concurrency: 4,
} as const;

export interface SmsQueueDeps {
  db: Database;
  provider: SmsProvider;
  now: () => Date;
  /** Stop claiming more once aborted (shutdown); messages in flight finish. */
  signal?: AbortSignal;
}

export interface DrainReport {
  sent: number;
  retrying: number;
  failed: number;
  /** Were "sending" past the timeout: outcome unknown, marked failed. */
  abandoned: number;
  /** Not sent because the number may no longer be texted. */
  suppressed: number;
}

export function retryDelayMs(attempts: number): number {
  return Math.min(SMS_QUEUE.retryMaxDelayMs, SMS_QUEUE.retryBaseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/** Queued and not waiting for a retry's time. */
const isDue = (now: Date) =>
  and(eq(smsOutbox.status, "queued"), or(isNull(smsOutbox.nextAttemptAt), lte(smsOutbox.nextAttemptAt, now)));

/**
 * Sends queued messages through the provider, each at most once:
 * 1. messages left "sending" past the timeout are failed (never resent);
 * 2. each due message is claimed with a conditional UPDATE (queued →
 *    sending) just before it is handed to the provider, so of several
 *    senders exactly one gets it, and a crash strands only those in flight;
 * 3. each is delivered and marked sent; a retryable failure puts it back in
 *    the queue for later, up to maxAttempts; anything else fails it.
 * Vote notices are held during the recipient's quiet hours and dropped if
 * the number may no longer be texted.
 */
export async function sendQueuedMessages(deps: SmsQueueDeps): Promise<DrainReport> {
  const { db } = deps;
  const report: DrainReport = { sent: 0, retrying: 0, failed: 0, abandoned: 0, suppressed: 0 };
  const startedAt = deps.now();

  const abandoned = await db
    .update(smsOutbox)
    .set({ status: "failed", lastError: "interrupted while sending: outcome unknown, not resent" })
    .where(
      and(
        eq(smsOutbox.status, "sending"),
        lt(smsOutbox.claimedAt, new Date(startedAt.getTime() - SMS_QUEUE.sendingTimeoutMs)),
      ),
    )
    .returning({ id: smsOutbox.id });
  report.abandoned = abandoned.length;

  // Keyset over (created_at, id): messages held back (quiet hours) are passed over, not re-read forever.
  let cursor: string | undefined;
  while (!deps.signal?.aborted) {
    const now = deps.now();
    const due = await db
      .select({
        id: smsOutbox.id,
        to: smsOutbox.toPhone,
        body: smsOutbox.body,
        kind: smsOutbox.kind,
        timeZone: schools.timeZone,
      })
      .from(smsOutbox)
      .leftJoin(users, eq(users.phone, smsOutbox.toPhone))
      .leftJoin(schools, eq(schools.id, users.schoolId))
      .where(
        and(
          isDue(now),
          // Compared with the stored row, not a JS Date: timestamps keep microseconds, Dates do not.
          cursor
            ? sql`(${smsOutbox.createdAt}, ${smsOutbox.id}) > (select c.created_at, c.id from sms_outbox c where c.id = ${cursor})`
            : undefined,
        ),
      )
      .orderBy(asc(smsOutbox.createdAt), asc(smsOutbox.id))
      .limit(SMS_QUEUE.batchSize);
    if (due.length === 0) break;
    cursor = due[due.length - 1]!.id;

    const sendable = due.filter(
      (m) => m.kind !== "notification" || !isQuietHour(now, m.timeZone ?? FALLBACK_TIME_ZONE),
    );
    if (sendable.length > 0) await claimAndSend(deps, sendable, report);
    if (due.length < SMS_QUEUE.batchSize) break;
  }
  return report;
}

interface DueMessage {
  id: string;
  to: string;
  body: string;
  kind: SmsKind;
}

/**
 * Each message is claimed (queued → sending) only when a worker is about to
 * hand it to the provider, so a crash leaves at most `concurrency` messages
 * "sending" (in doubt) and the rest queued for the next run.
 */
async function claimAndSend(deps: SmsQueueDeps, due: DueMessage[], report: DrainReport): Promise<void> {
  const { db } = deps;
  const allowed = await smsAllowedPhones(
    db,
    due.filter((m) => needsConsent(m.kind)).map((m) => m.to),
  );

  await forEachConcurrently(due, SMS_QUEUE.concurrency, deps.signal, async (message) => {
    if (needsConsent(message.kind) && !allowed.has(message.to)) {
      const dropped = await db
        .update(smsOutbox)
        .set({ status: "failed", lastError: "not sent: the number no longer consents to texts" })
        .where(and(eq(smsOutbox.id, message.id), eq(smsOutbox.status, "queued")))
        .returning({ id: smsOutbox.id });
      report.suppressed += dropped.length;
      return;
    }
    const [claimed] = await db
      .update(smsOutbox)
      .set({ status: "sending", claimedAt: deps.now(), attempts: sql`${smsOutbox.attempts} + 1` })
      // Still due: another sender may have tried it since it was read, and put it back for later.
      .where(and(eq(smsOutbox.id, message.id), isDue(deps.now())))
      .returning({ attempts: smsOutbox.attempts });
    if (!claimed) return; // another sender has it

    const finish = (set: Partial<typeof smsOutbox.$inferInsert>) =>
      db
        .update(smsOutbox)
        .set(set)
        .where(and(eq(smsOutbox.id, message.id), eq(smsOutbox.status, "sending")));
    try {
      const { providerMessageId } = await deps.provider.deliver({ to: message.to, body: message.body });
      await finish({ status: "sent", sentAt: deps.now(), providerMessageId, lastError: null });
      report.sent++;
    } catch (error) {
      const retry = error instanceof SmsDeliveryError && error.retryable && claimed.attempts < SMS_QUEUE.maxAttempts;
      if (retry) {
        await finish({
          status: "queued",
          lastError: errorText(error),
          nextAttemptAt: new Date(deps.now().getTime() + retryDelayMs(claimed.attempts)),
        });
        report.retrying++;
      } else {
        await finish({ status: "failed", lastError: errorText(error) });
        report.failed++;
        // The carrier has the number opted out (a STOP we never saw): record it, so nothing more is queued for it.
        if (error instanceof SmsDeliveryError && error.recipientOptedOut) {
          await recordSmsKeywordConsent(db, message.to, CARRIER_OPT_OUT, false, deps.now());
        }
      }
    }
  });
}

const needsConsent = (kind: SmsKind) => kind !== "code";

/** The consent record's keyword when the carrier, not an inbound text, told us of the STOP. */
const CARRIER_OPT_OUT = "STOP (carrier, Twilio 21610)";

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

/** Twilio's MessageStatus values we record; the others (queued, sending, accepted...) change nothing. */
const CALLBACK_STATUS: Record<string, SmsStatus> = {
  sent: "sent",
  delivered: "delivered",
  read: "delivered",
  undelivered: "failed",
  failed: "failed",
};

/** Statuses each recorded status may follow: a late "sent" never undoes "delivered". */
const MAY_FOLLOW: Record<SmsStatus, SmsStatus[]> = {
  queued: [],
  sending: [],
  sent: ["sending"],
  delivered: ["sending", "sent"],
  failed: ["sending", "sent"],
};

/** A delivery status callback: moves the message forward, never back. Answers whether it matched. */
export async function applyDeliveryStatus(
  db: Database,
  update: { providerMessageId: string; status: string; errorCode?: string | null },
): Promise<boolean> {
  const status = CALLBACK_STATUS[update.status];
  if (!status) return false;
  const rows = await db
    .update(smsOutbox)
    .set({
      status,
      ...(status === "failed"
        ? { lastError: `${update.status}${update.errorCode ? ` (Twilio error ${update.errorCode})` : ""}` }
        : {}),
    })
    .where(
      and(eq(smsOutbox.providerMessageId, update.providerMessageId), inArray(smsOutbox.status, MAY_FOLLOW[status])),
    )
    .returning({ id: smsOutbox.id });
  return rows.length > 0;
}

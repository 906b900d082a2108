import { pushNotice } from "@quad/contracts";
import type { Database } from "@quad/db";
import { pushDeliveries, pushNotices, pushSubscriptions, schools, users } from "@quad/db/schema";
import { and, asc, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import { FALLBACK_TIME_ZONE, isQuietHour } from "../notifications/local-time";
import { forEachConcurrently } from "../sms/queue";
import { PushDeliveryError, type PushSender } from "./sender";

export const PUSH_QUEUE = {
  /** A push service failure other than 404/410 is tried this many times in all, then failed. */
  maxAttempts: 4,
  /** 5, 10, 20 minutes... before the next attempt (the job runs every 10). */
  retryBaseDelayMs: 5 * 60 * 1000,
  retryMaxDelayMs: 60 * 60 * 1000,
  /** "sending" this long after its claim: the process died mid-request; failed, never resent. */
  sendingTimeoutMs: 5 * 60 * 1000,
  batchSize: 100,
  concurrency: 4,
} as const;

export interface PushQueueDeps {
  db: Database;
  sender: PushSender;
  now: () => Date;
  signal?: AbortSignal;
}

export interface PushDrainReport {
  sent: number;
  retrying: number;
  failed: number;
  /** Subscriptions the push service called gone (404/410), removed with their deliveries. */
  removed: number;
  abandoned: number;
}

export function pushRetryDelayMs(attempts: number): number {
  return Math.min(PUSH_QUEUE.retryMaxDelayMs, PUSH_QUEUE.retryBaseDelayMs * 2 ** Math.max(0, attempts - 1));
}

const isDue = (now: Date) =>
  and(
    eq(pushDeliveries.status, "queued"),
    or(isNull(pushDeliveries.nextAttemptAt), lte(pushDeliveries.nextAttemptAt, now)),
  );

interface DueDelivery {
  id: string;
  subscriptionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  voteCount: number;
}

/**
 * Sends queued pushes, each at most once, as the SMS queue sends texts: a
 * delivery is claimed (queued → sending) just before its request, then marked
 * sent; a subscription the push service answers 404 or 410 is removed; any
 * other failure is retried with backoff up to maxAttempts. Nothing is sent in
 * the student's quiet hours (a retry waits for the morning).
 */
export async function sendQueuedPushes(deps: PushQueueDeps): Promise<PushDrainReport> {
  const { db } = deps;
  const report: PushDrainReport = { sent: 0, retrying: 0, failed: 0, removed: 0, abandoned: 0 };
  const abandoned = await db
    .update(pushDeliveries)
    .set({ status: "failed", lastError: "interrupted while sending: outcome unknown, not resent" })
    .where(
      and(
        eq(pushDeliveries.status, "sending"),
        lt(pushDeliveries.claimedAt, new Date(deps.now().getTime() - PUSH_QUEUE.sendingTimeoutMs)),
      ),
    )
    .returning({ id: pushDeliveries.id });
  report.abandoned = abandoned.length;

  // Keyset over (created_at, id): deliveries held back for quiet hours are passed over, not re-read.
  let cursor: string | undefined;
  while (!deps.signal?.aborted) {
    const now = deps.now();
    const due = await db
      .select({
        id: pushDeliveries.id,
        subscriptionId: pushDeliveries.subscriptionId,
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
        voteCount: pushNotices.voteCount,
        timeZone: schools.timeZone,
      })
      .from(pushDeliveries)
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushDeliveries.subscriptionId))
      .innerJoin(pushNotices, eq(pushNotices.id, pushDeliveries.noticeId))
      .innerJoin(users, eq(users.id, pushNotices.userId))
      .leftJoin(schools, eq(schools.id, users.schoolId))
      .where(
        and(
          isDue(now),
          cursor
            ? sql`(${pushDeliveries.createdAt}, ${pushDeliveries.id}) > (select c.created_at, c.id from push_deliveries c where c.id = ${cursor})`
            : undefined,
        ),
      )
      .orderBy(asc(pushDeliveries.createdAt), asc(pushDeliveries.id))
      .limit(PUSH_QUEUE.batchSize);
    if (due.length === 0) break;
    cursor = due[due.length - 1]!.id;
    const sendable = due.filter((d) => !isQuietHour(now, d.timeZone ?? FALLBACK_TIME_ZONE));
    await forEachConcurrently(sendable, PUSH_QUEUE.concurrency, deps.signal, (delivery) =>
      claimAndSend(deps, delivery, report),
    );
    if (due.length < PUSH_QUEUE.batchSize) break;
  }
  return report;
}

async function claimAndSend(deps: PushQueueDeps, delivery: DueDelivery, report: PushDrainReport): Promise<void> {
  const { db } = deps;
  const [claimed] = await db
    .update(pushDeliveries)
    .set({ status: "sending", claimedAt: deps.now(), attempts: sql`${pushDeliveries.attempts} + 1` })
    .where(and(eq(pushDeliveries.id, delivery.id), isDue(deps.now())))
    .returning({ attempts: pushDeliveries.attempts });
  if (!claimed) return; // another sender has it

  const finish = (set: Partial<typeof pushDeliveries.$inferInsert>) =>
    db
      .update(pushDeliveries)
      .set(set)
      .where(and(eq(pushDeliveries.id, delivery.id), eq(pushDeliveries.status, "sending")));
  const target = { endpoint: delivery.endpoint, keys: { p256dh: delivery.p256dh, auth: delivery.auth } };
  try {
    await deps.sender.send(target, JSON.stringify(pushNotice(delivery.voteCount)));
    await finish({ status: "sent", sentAt: deps.now(), lastError: null });
    report.sent++;
  } catch (error) {
    const failure = error instanceof PushDeliveryError ? error : new PushDeliveryError(String(error), undefined, false);
    if (failure.gone) {
      // The browser unsubscribed or the subscription expired: forget the device (its deliveries go with it).
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, delivery.subscriptionId));
      report.removed++;
    } else if (claimed.attempts < PUSH_QUEUE.maxAttempts) {
      await finish({
        status: "queued",
        lastError: failure.message,
        nextAttemptAt: new Date(deps.now().getTime() + pushRetryDelayMs(claimed.attempts)),
      });
      report.retrying++;
    } else {
      await finish({ status: "failed", lastError: failure.message });
      report.failed++;
    }
  }
}

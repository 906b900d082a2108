import { pushNotice } from "@quad/contracts";
import type { Database } from "@quad/db";
import { pushDeliveries, pushNotices, pushSubscriptions, schools, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { forEachConcurrently, OUTBOX, outbox } from "../../outbox/outbox";
import { PushDeliveryError, type PushSender } from "./sender";
import { dropSubscriptions, type OnPushesDropped } from "./subscriptions";

export interface PushQueueDeps {
  db: Database;
  sender: PushSender;
  now: () => Date;
  signal?: AbortSignal;
  /** Told the notices whose last delivery failed or went with a removed device (the job texts them instead). */
  onDropped?: OnPushesDropped;
}

export interface PushDrainReport {
  sent: number;
  retrying: number;
  failed: number;
  /** Subscriptions the push service called gone (404/410), removed with their deliveries. */
  removed: number;
  abandoned: number;
  /** Notices with a delivery that ended unsent this run, handed to onDropped. */
  dropped: number;
}

interface DueDelivery {
  id: string;
  noticeId: string;
  subscriptionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  voteCount: number;
}

/**
 * Sends queued pushes, each at most once, by the outbox's rules (as the SMS
 * queue sends texts): a delivery is claimed (queued → sending) just before
 * its request, then marked sent; a subscription the push service answers 404
 * or 410 is removed; any other failure is retried with backoff up to
 * maxAttempts. A notice whose delivery ended unsent is handed to onDropped
 * (which texts it instead when no device got it). Nothing is sent in the
 * student's quiet hours (a retry waits for the morning).
 */
export async function sendQueuedPushes(deps: PushQueueDeps): Promise<PushDrainReport> {
  const { db } = deps;
  const report: PushDrainReport = { sent: 0, retrying: 0, failed: 0, removed: 0, abandoned: 0, dropped: 0 };
  const dropped = new Set<string>();
  const queue = outbox(db, pushDeliveries);
  report.abandoned = await queue.drain(
    deps,
    (where, order, limit) =>
      db
        .select({
          id: pushDeliveries.id,
          noticeId: pushDeliveries.noticeId,
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
        .where(where)
        .orderBy(...order)
        .limit(limit),
    (sendable) =>
      forEachConcurrently(sendable, OUTBOX.concurrency, deps.signal, (delivery) =>
        claimAndSend(deps, queue, delivery, report, dropped),
      ),
  );
  // Even after a shutdown's abort: nothing else comes back to these notices.
  report.dropped = dropped.size;
  if (dropped.size > 0) await deps.onDropped?.([...dropped]);
  return report;
}

async function claimAndSend(
  deps: PushQueueDeps,
  queue: ReturnType<typeof outbox>,
  delivery: DueDelivery,
  report: PushDrainReport,
  dropped: Set<string>,
): Promise<void> {
  const attempts = await queue.claim(delivery.id, deps.now());
  if (attempts === null) return; // another sender has it

  const target = { endpoint: delivery.endpoint, keys: { p256dh: delivery.p256dh, auth: delivery.auth } };
  try {
    await deps.sender.send(target, JSON.stringify(pushNotice(delivery.voteCount)));
    await queue.finish(delivery.id, { status: "sent", sentAt: deps.now(), lastError: null });
    report.sent++;
  } catch (error) {
    const failure = error instanceof PushDeliveryError ? error : new PushDeliveryError(String(error), undefined, false);
    if (failure.gone) {
      // The browser unsubscribed or the subscription expired: forget the device (its deliveries go with it).
      const notices = await dropSubscriptions(deps.db, eq(pushSubscriptions.id, delivery.subscriptionId));
      for (const noticeId of [delivery.noticeId, ...notices]) dropped.add(noticeId);
      report.removed++;
    } else {
      // Any other failure of the push service is worth another try.
      const outcome = await queue.settleFailure(
        delivery.id,
        attempts,
        { retryable: true, message: failure.message },
        deps.now(),
      );
      report[outcome]++;
      // The last try failed: whether another device got the notice is for onDropped to see.
      if (outcome === "failed") dropped.add(delivery.noticeId);
    }
  }
}

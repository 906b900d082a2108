import {
  normalizePushEndpoint,
  PUSH_DEVICES_PER_STUDENT,
  PUSH_MESSAGES,
  type PushDeviceState,
  type PushSubscriptionInput,
} from "@quad/contracts";
import type { Database } from "@quad/db";
import { pushDeliveries, pushSubscriptions } from "@quad/db/schema";
import { and, desc, eq, inArray, ne, notInArray, sql, type SQL } from "drizzle-orm";
import { AppError } from "../../errors";
import type { PushEndpointPolicy } from "./endpoint-policy";

/** Push is configured off on this server: nothing to subscribe to. */
export function pushDisabled(): AppError {
  return new AppError("CONFLICT", PUSH_MESSAGES.disabled);
}

function refusedEndpoint(message: string): AppError {
  return new AppError("BAD_REQUEST", message, { fieldErrors: { endpoint: [message] } });
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Told the notices whose queued pushes went with removed devices: one that
 * no device will now receive falls back to a text (notifications/push-fallback.ts).
 */
export type OnPushesDropped = (noticeIds: readonly string[]) => Promise<unknown>;

/** Deletes these subscriptions (their deliveries go with them) and answers the notices they still had queued. */
export async function dropSubscriptions(tx: Transaction | Database, where: SQL | undefined): Promise<string[]> {
  const pending = await tx
    .selectDistinct({ noticeId: pushDeliveries.noticeId })
    .from(pushDeliveries)
    .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushDeliveries.subscriptionId))
    .where(and(where, inArray(pushDeliveries.status, ["queued", "sending"])));
  await tx.delete(pushSubscriptions).where(where);
  return pending.map((row) => row.noticeId);
}

export interface SubscribeOptions {
  policy: PushEndpointPolicy;
  onDropped?: OnPushesDropped;
}

/**
 * Stores a device's subscription for this student, its endpoint in the
 * policy's one spelling. The endpoint names the device: subscribing again
 * replaces its keys and counts as its newest subscription, and a device that
 * now signs in as someone else moves to them (one device, one student to
 * notify), leaving the previous student's queued pushes behind. A student
 * keeps at most PUSH_DEVICES_PER_STUDENT devices: past that the ones that
 * subscribed longest ago are dropped, in the same transaction and under a
 * lock per student, so concurrent subscribes cannot pass the cap either.
 */
export async function subscribeDevice(
  db: Database,
  userId: string,
  input: PushSubscriptionInput,
  now: Date,
  options: SubscribeOptions,
): Promise<PushDeviceState> {
  const checked = options.policy.check(input.endpoint);
  if (!checked.ok) {
    throw refusedEndpoint(checked.refusal === "service" ? PUSH_MESSAGES.endpointService : PUSH_MESSAGES.endpoint);
  }
  const { endpoint } = checked;
  const values = { userId, endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, createdAt: now };
  const dropped = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"push-devices:" + userId}))`);
    const moved = await dropSubscriptions(
      tx,
      and(eq(pushSubscriptions.endpoint, endpoint), ne(pushSubscriptions.userId, userId)),
    );
    await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values });
    const kept = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      // Newest first; this device first among equal times (it was just subscribed).
      .orderBy(desc(pushSubscriptions.createdAt), desc(sql`${pushSubscriptions.endpoint} = ${endpoint}`))
      .limit(PUSH_DEVICES_PER_STUDENT);
    const evicted = await dropSubscriptions(
      tx,
      and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, kept)),
    );
    return [...moved, ...evicted];
  });
  if (dropped.length > 0) await options.onDropped?.(dropped);
  return { subscribed: true };
}

/** Removes this student's subscription of that device; another student's is left alone. */
export async function unsubscribeDevice(
  db: Database,
  userId: string,
  endpoint: string,
  onDropped?: OnPushesDropped,
): Promise<PushDeviceState> {
  // Stored endpoints are normalised; the browser may send the spelling it subscribed with.
  const endpoints = [...new Set([endpoint, normalizePushEndpoint(endpoint)?.href ?? endpoint])];
  const dropped = await dropSubscriptions(
    db,
    and(eq(pushSubscriptions.userId, userId), inArray(pushSubscriptions.endpoint, endpoints)),
  );
  if (dropped.length > 0) await onDropped?.(dropped);
  return { subscribed: false };
}

/** Of these students, the ones with push on for at least one device. */
export async function studentsWithPush(db: Database, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ userId: pushSubscriptions.userId })
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, [...userIds]));
  return new Set(rows.map((row) => row.userId));
}

import { PUSH_MESSAGES, type PushDeviceState, type PushSubscriptionInput } from "@quad/contracts";
import type { Database } from "@quad/db";
import { pushSubscriptions } from "@quad/db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { AppError } from "../../errors";

/** Push is configured off on this server: nothing to subscribe to. */
export function pushDisabled(): AppError {
  return new AppError("CONFLICT", PUSH_MESSAGES.disabled);
}

/**
 * Stores a device's subscription for this student. The endpoint names the
 * device: subscribing again replaces its keys, and a device that now signs in
 * as someone else moves to them (one device, one student to notify).
 */
export async function subscribeDevice(db: Database, userId: string, input: PushSubscriptionInput, now: Date): Promise<PushDeviceState> {
  const values = { userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth };
  await db
    .insert(pushSubscriptions)
    .values({ ...values, createdAt: now })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values });
  return { subscribed: true };
}

/** Removes this student's subscription of that device; another student's is left alone. */
export async function unsubscribeDevice(db: Database, userId: string, endpoint: string): Promise<PushDeviceState> {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
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

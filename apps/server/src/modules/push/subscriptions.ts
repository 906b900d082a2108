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
 * Browsers' push services are reached by name. An endpoint on an IP address,
 * localhost or a single-label or internal name would have the server post
 * into its own network, so production refuses it; development and tests allow
 * it (their push service is a local one).
 */
export function endpointHostAllowed(endpoint: string, allowLocal: boolean): boolean {
  if (allowLocal) return true;
  const host = new URL(endpoint).hostname.toLowerCase();
  const ipLiteral = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[");
  const internal = host === "localhost" || /\.(localhost|local|internal|home\.arpa)$/.test(host) || !host.includes(".");
  return !ipLiteral && !internal;
}

export interface SubscribeOptions {
  /** Development and tests: endpoints on local hosts are accepted. */
  allowLocalEndpoints: boolean;
}

/**
 * Stores a device's subscription for this student. The endpoint names the
 * device: subscribing again replaces its keys, and a device that now signs in
 * as someone else moves to them (one device, one student to notify).
 */
export async function subscribeDevice(
  db: Database,
  userId: string,
  input: PushSubscriptionInput,
  now: Date,
  options: SubscribeOptions = { allowLocalEndpoints: false },
): Promise<PushDeviceState> {
  if (!endpointHostAllowed(input.endpoint, options.allowLocalEndpoints)) {
    throw new AppError("BAD_REQUEST", PUSH_MESSAGES.endpoint, { fieldErrors: { endpoint: [PUSH_MESSAGES.endpoint] } });
  }
  const values = { userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth };
  await db
    .insert(pushSubscriptions)
    .values({ ...values, createdAt: now })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values });
  return { subscribed: true };
}

/** Removes this student's subscription of that device; another student's is left alone. */
export async function unsubscribeDevice(db: Database, userId: string, endpoint: string): Promise<PushDeviceState> {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
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

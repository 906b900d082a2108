import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { users } from "./users";

/**
 * A device's Web Push subscription (what the browser's PushManager answered).
 * One row per device: the endpoint is unique, so a device that signs in to
 * another account moves its subscription there.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    /** The browser's ECDH public key (P-256, base64url) and auth secret (RFC 8291). */
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("push_subscriptions_user_idx").on(t.userId)],
);

/** One vote notice sent by push: counted against the same daily cap as texts. */
export const pushNotices = pgTable(
  "push_notices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    voteCount: integer("vote_count").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("push_notices_vote_count_positive", sql`${t.voteCount} > 0`),
    // The daily cap counts a student's notices since local midnight; the purge drops old ones.
    index("push_notices_user_created_idx").on(t.userId, t.createdAt),
    index("push_notices_created_idx").on(t.createdAt),
  ],
);

/** A notice to one device: queued, then sent, retried with backoff, or failed. */
export const pushDeliveries = pgTable(
  "push_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    noticeId: uuid("notice_id")
      .notNull()
      .references(() => pushNotices.id, { onDelete: "cascade" }),
    // A subscription the push service says is gone takes its deliveries with it.
    subscriptionId: uuid("subscription_id")
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["queued", "sending", "sent", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    claimedAt: timestamptz("claimed_at"),
    nextAttemptAt: timestamptz("next_attempt_at"),
    sentAt: timestamptz("sent_at"),
  },
  (t) => [
    check("push_deliveries_status_known", sql`${t.status} in ('queued', 'sending', 'sent', 'failed')`),
    check("push_deliveries_attempts_nonnegative", sql`${t.attempts} >= 0`),
    index("push_deliveries_status_created_idx").on(t.status, t.createdAt),
    index("push_deliveries_notice_idx").on(t.noticeId),
    index("push_deliveries_subscription_idx").on(t.subscriptionId),
  ],
);

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
export type PushDeliveryStatus = (typeof pushDeliveries.status.enumValues)[number];

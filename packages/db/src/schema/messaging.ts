import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { consentKindEnum, smsKindEnum, smsStatusEnum } from "./enums";
import { users } from "./users";

/** Every SMS the app sends goes through here (the development provider only stores it). */
export const smsOutbox = pgTable(
  "sms_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    toPhone: text("to_phone").notNull(),
    body: text("body").notNull(),
    kind: smsKindEnum("kind").notNull(),
    status: smsStatusEnum("status").notNull().default("queued"),
    providerMessageId: text("provider_message_id"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamptz("sent_at"),
    /** When a sender claimed it (status "sending"): past a timeout its outcome is unknown. */
    claimedAt: timestamptz("claimed_at"),
    /** A queued message whose send failed waits until then to be tried again. */
    nextAttemptAt: timestamptz("next_attempt_at"),
  },
  (t) => [
    check("sms_outbox_attempts_nonnegative", sql`${t.attempts} >= 0`),
    // Messages to a phone, newest first (dev outbox, daily cap).
    index("sms_outbox_to_phone_created_idx").on(t.toPhone, t.createdAt.desc().nullsFirst()),
    // The sender picks queued messages oldest first.
    index("sms_outbox_status_created_idx").on(t.status, t.createdAt),
    // Delivery status callbacks name the provider's message id.
    index("sms_outbox_provider_message_idx")
      .on(t.providerMessageId)
      .where(sql`${t.providerMessageId} is not null`),
    // The periodic purge deletes rows older than 30 days.
    index("sms_outbox_created_idx").on(t.createdAt),
  ],
);

/**
 * Append-only consent records (SMS, terms): the latest row per (phone, kind)
 * is the current state, and the history proves what was agreed and when.
 * Keyed by phone because consent is given before a profile exists.
 */
export const consents = pgTable(
  "consents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    phone: text("phone").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    kind: consentKindEnum("kind").notNull(),
    granted: boolean("granted").notNull(),
    /** Which wording was agreed, e.g. contracts' SMS_CONSENT_VERSION. */
    textVersion: text("text_version").notNull(),
    /** Where it came from, e.g. "signup" or "sms:STOP". */
    source: text("source").notNull(),
    createdAt: createdAt(),
    /** Insertion order: breaks ties between rows written in the same millisecond. */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
  },
  (t) => [
    index("consents_phone_kind_created_idx").on(t.phone, t.kind, t.createdAt.desc().nullsFirst()),
    index("consents_user_idx").on(t.userId),
  ],
);

export type SmsOutboxMessage = typeof smsOutbox.$inferSelect;
export type NewSmsOutboxMessage = typeof smsOutbox.$inferInsert;
export type Consent = typeof consents.$inferSelect;
export type NewConsent = typeof consents.$inferInsert;

import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { users } from "./users";

/**
 * One-time codes that prove a school address, stored hashed. Each belongs to
 * the student who asked for it (deleted with the account) and names the
 * address it was sent to; entering it makes that address the student's.
 */
export const schoolEmailCodes = pgTable(
  "school_email_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Lower case, as stored on the profile once proved. */
    address: text("address").notNull(),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    consumedAt: timestamptz("consumed_at"),
  },
  (t) => [
    check("school_email_codes_attempts_nonnegative", sql`${t.attempts} >= 0`),
    // A student's latest code, and the per-student send and failure limits.
    index("school_email_codes_user_created_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
    // The per-address send limit, across students.
    index("school_email_codes_address_created_idx").on(t.address, t.createdAt.desc().nullsFirst()),
    // The periodic purge deletes old codes.
    index("school_email_codes_created_idx").on(t.createdAt),
  ],
);

/**
 * Every e-mail the app sends, written before the provider is called (the
 * development provider only stores it; /api/dev/email-outbox reads it).
 * Tied to the student it was for, so deleting the account deletes the
 * messages and the address in them.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    /** sending → sent, or failed; a crash leaves "sending" and nothing resends it. */
    status: text("status").notNull().default("sending"),
    providerMessageId: text("provider_message_id"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamptz("sent_at"),
  },
  (t) => [
    check("email_outbox_status", sql`${t.status} in ('sending', 'sent', 'failed')`),
    index("email_outbox_to_created_idx").on(t.toAddress, t.createdAt.desc().nullsFirst()),
    index("email_outbox_user_idx").on(t.userId),
    // The periodic purge deletes rows older than 30 days.
    index("email_outbox_created_idx").on(t.createdAt),
  ],
);

export type SchoolEmailCode = typeof schoolEmailCodes.$inferSelect;
export type EmailOutboxMessage = typeof emailOutbox.$inferSelect;

import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";

/**
 * One-time sign-in codes, stored hashed. Keyed by phone: a code may precede
 * the profile. Each is bound to the request that asked for it (the hash of
 * the opaque value send-code answered) and to its requester (a keyed hash of
 * the client address), so limits count per requester, not per phone.
 */
export const authCodes = pgTable(
  "auth_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    phone: text("phone").notNull(),
    codeHash: text("code_hash").notNull(),
    requestHash: text("request_hash").notNull(),
    requesterHash: text("requester_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When a wrong code was last entered for it: a requester's next check waits from here. */
    lastFailedAt: timestamptz("last_failed_at"),
    consumedAt: timestamptz("consumed_at"),
  },
  (t) => [
    check("auth_codes_attempts_nonnegative", sql`${t.attempts} >= 0`),
    // A phone's codes of the last day: the check's code and every sign-in limit.
    index("auth_codes_phone_created_idx").on(t.phone, t.createdAt.desc().nullsFirst()),
    // The periodic purge deletes expired codes.
    index("auth_codes_expires_idx").on(t.expiresAt),
  ],
);

/**
 * Refresh tokens (hashed). Rotation links a token to its successor; reuse of a
 * rotated token revokes its whole family.
 */
export const authSessions = pgTable(
  "auth_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    phone: text("phone").notNull(),
    familyId: uuid("family_id").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    revokedAt: timestamptz("revoked_at"),
    /** Successor token's id; no foreign key so the purge can delete rows in any order. */
    replacedBy: uuid("replaced_by"),
  },
  (t) => [
    index("auth_sessions_family_idx").on(t.familyId),
    index("auth_sessions_phone_idx").on(t.phone),
    index("auth_sessions_expires_idx").on(t.expiresAt),
    // The periodic purge deletes sessions revoked long ago (each rotation revokes one row).
    index("auth_sessions_revoked_idx")
      .on(t.revokedAt)
      .where(sql`${t.revokedAt} is not null`),
  ],
);

/**
 * Session families signed out while their access tokens may still be valid
 * (logout, refresh-token reuse, account deletion or removal). Every server
 * process loads the recent ones at start and hears new ones by NOTIFY; rows
 * older than an access token's lifetime serve no purpose and are purged. A
 * family id is random and names no one, so a deleted account leaves nothing
 * personal here.
 */
export const sessionRevocations = pgTable(
  "session_revocations",
  {
    familyId: uuid("family_id").primaryKey(),
    revokedAt: timestamptz("revoked_at").notNull(),
  },
  (t) => [index("session_revocations_revoked_idx").on(t.revokedAt)],
);

export type AuthCode = typeof authCodes.$inferSelect;
export type NewAuthCode = typeof authCodes.$inferInsert;
export type AuthSession = typeof authSessions.$inferSelect;
export type NewAuthSession = typeof authSessions.$inferInsert;

import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";

/** One-time sign-in codes, stored hashed. Keyed by phone: a code may precede the profile. */
export const authCodes = pgTable(
  "auth_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    phone: text("phone").notNull(),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    consumedAt: timestamptz("consumed_at"),
  },
  (t) => [
    check("auth_codes_attempts_nonnegative", sql`${t.attempts} >= 0`),
    // Latest code for a phone, and the per-phone send rate limit.
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
    index("auth_sessions_revoked_idx").on(t.revokedAt).where(sql`${t.revokedAt} is not null`),
  ],
);

export type AuthCode = typeof authCodes.$inferSelect;
export type NewAuthCode = typeof authCodes.$inferInsert;
export type AuthSession = typeof authSessions.$inferSelect;
export type NewAuthSession = typeof authSessions.$inferInsert;

import { sql } from "drizzle-orm";
import { check, index, jsonb, pgTable, primaryKey, text, unique, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { adminActionEnum, reportReasonEnum } from "./enums";
import { users } from "./users";

/** A block hides both people from each other's rounds, whoever blocked. */
export const blocks = pgTable(
  "blocks",
  {
    blockerId: uuid("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: uuid("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "blocks_pkey", columns: [t.blockerId, t.blockedId] }),
    // "Who blocked me" side of the either-direction check.
    index("blocks_blocked_idx").on(t.blockedId),
    check("blocks_not_self", sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

export const reports = pgTable(
  "reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /**
     * Null once the reporter deleted their account: the report stays for the moderators (an
     * Under 18 report must not vanish unreviewed), with nobody behind it and no weight.
     */
    reporterId: uuid("reporter_id").references(() => users.id, { onDelete: "set null" }),
    reportedId: uuid("reported_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: reportReasonEnum("reason").notNull(),
    note: text("note"),
    createdAt: createdAt(),
    resolvedAt: timestamptz("resolved_at"),
  },
  (t) => [
    // One report per reporter and person: repeated reports cannot pile up.
    unique("reports_reporter_reported_unique").on(t.reporterId, t.reportedId),
    index("reports_reported_idx").on(t.reportedId),
    check("reports_not_self", sql`${t.reporterId} <> ${t.reportedId}`),
  ],
);

/**
 * Open "Under 18" reports about a student who deleted their own account,
 * kept under a keyed digest of the phone (never the phone itself) so that
 * a new account with that phone takes them back into the moderators'
 * queue (decision 0010). Deleted a year after the deletion by the purge.
 */
export const keptUrgentReports = pgTable(
  "kept_urgent_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** HMAC-SHA256 of the phone under the server secret (modules/safety/kept-reports.ts). */
    phoneDigest: text("phone_digest").notNull(),
    reporterId: uuid("reporter_id").references(() => users.id, { onDelete: "set null" }),
    reason: reportReasonEnum("reason").notNull(),
    note: text("note"),
    /** When the report was filed: it keeps its place in the queue. */
    reportedAt: timestamptz("reported_at").notNull(),
    keptAt: timestamptz("kept_at").notNull(),
  },
  (t) => [
    index("kept_urgent_reports_phone_digest_idx").on(t.phoneDigest),
    // Only urgent reports are kept (URGENT_REPORT_REASONS in the contracts); the rest go with the account.
    check("kept_urgent_reports_urgent", sql`${t.reason} = 'under_18'`),
  ],
);

export type Block = typeof blocks.$inferSelect;
export type NewBlock = typeof blocks.$inferInsert;
export type Report = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;

/** Every moderator action, who did it and to whom; kept when either account is later deleted. */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    adminId: uuid("admin_id").references(() => users.id, { onDelete: "set null" }),
    action: adminActionEnum("action").notNull(),
    /** No foreign key: the entry must outlive a removed profile. */
    targetUserId: uuid("target_user_id"),
    details: jsonb("details").notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index("admin_audit_log_created_idx").on(t.createdAt.desc().nullsFirst()),
    index("admin_audit_log_admin_idx").on(t.adminId),
  ],
);

export type AdminAuditEntry = typeof adminAuditLog.$inferSelect;

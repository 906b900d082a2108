import { STORED_CLASS_YEARS } from "@quad/contracts";
import { sql } from "drizzle-orm";
import { boolean, check, foreignKey, index, integer, pgTable, smallint, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "./columns";
import { genderEnum, userRoleEnum } from "./enums";
import { schoolEmailDomains, schools } from "./schools";

// Any year a profile may keep; the years a student may choose follow the date (contracts' class-years.ts).
const FIRST_YEAR = STORED_CLASS_YEARS.min;
const LAST_YEAR = STORED_CLASS_YEARS.max;

/**
 * Profiles. Frequently changing counters (vote/skip allowances) live in
 * voter_state instead: every update here writes a new heap tuple and clears
 * the page's all-visible bit, which would defeat the index-only scans of the
 * candidate index below.
 */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** E.164 US number; one account per phone. */
    phone: text("phone").notNull().unique(),
    firstName: text("first_name"),
    schoolId: integer("school_id").references(() => schools.id),
    graduationYear: smallint("graduation_year"),
    gender: genderEnum("gender"),
    instagramHandle: text("instagram_handle"),
    /** Media key of the processed 3:4 photo. */
    photoKey: text("photo_key"),
    organizations: text("organizations")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    interests: text("interests")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    emojis: text("emojis")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Which gender this student is shown as candidates. */
    preference: genderEnum("preference"),
    isVerified: boolean("is_verified").notNull().default(false),
    /**
     * Membership of the school, proved by a code sent to a school address
     * (private: only the owner sees it). Demo students are members without
     * an address. Until then the student is never drawn or previewed and
     * cannot vote, report or block.
     */
    schoolEmail: text("school_email").unique(),
    /**
     * The mailbox the address reaches, named once per school: its local part at the school's
     * main domain (jo@washington.edu → jo@uw.edu). Unique, so one mailbox proves one account
     * whichever of the school's domains it is typed with.
     */
    schoolEmailCanonical: text("school_email_canonical").unique(),
    /** The school domain the proof matched: one the school lists (a subdomain only if listed). */
    schoolEmailDomain: text("school_email_domain"),
    schoolVerifiedAt: timestamptz("school_verified_at"),
    remainingUnlocks: integer("remaining_unlocks").notNull().default(0),
    boostEndsAt: timestamptz("boost_ends_at"),
    pausedAt: timestamptz("paused_at"),
    /** Set when enough reports paused the profile; only a moderator clears it (and the pause). */
    heldForReviewAt: timestamptz("held_for_review_at"),
    /** Opt-in to appear on the public landing preview. */
    showInPreview: boolean("show_in_preview").notNull().default(false),
    role: userRoleEnum("role").notNull().default("student"),
    /**
     * When the student moved to their current school, if they moved after
     * creating the profile (null: there since the profile was created). A
     * report weighs by the reporter's time at the school, not only the
     * account's age (decision 0010).
     */
    schoolSince: timestamptz("school_since"),
    /**
     * When the student last opened the inbox, on any device: votes after it
     * are the new ones. Existing students start at the column's creation.
     */
    inboxOpenedAt: timestamptz("inbox_opened_at").notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("users_phone_e164_us", sql`${t.phone} ~ '^[+]1[0-9]{10}$'`),
    check(
      "users_graduation_year_range",
      sql`${t.graduationYear} between ${sql.raw(String(FIRST_YEAR))} and ${sql.raw(String(LAST_YEAR))}`,
    ),
    // Credits never go below zero, whatever the application does.
    check("users_remaining_unlocks_nonnegative", sql`${t.remainingUnlocks} >= 0`),
    // Only the server sets is_verified, and only on a complete profile with a processed photo.
    check(
      "users_verified_profile_complete",
      sql`not ${t.isVerified} or (${t.firstName} is not null and ${t.schoolId} is not null and ${t.graduationYear} is not null and ${t.gender} is not null and ${t.instagramHandle} is not null and ${t.photoKey} is not null)`,
    ),
    // A proof of membership is for the current school: (school, domain) must be one of
    // its domains, so changing school without clearing the proof is refused.
    foreignKey({
      name: "users_school_email_domain_fk",
      columns: [t.schoolId, t.schoolEmailDomain],
      foreignColumns: [schoolEmailDomains.schoolId, schoolEmailDomains.domain],
    }),
    check("users_school_proof_whole", sql`(${t.schoolVerifiedAt} is null) = (${t.schoolEmailDomain} is null)`),
    check("users_school_email_proved", sql`${t.schoolEmail} is null or ${t.schoolVerifiedAt} is not null`),
    check("users_school_email_lower", sql`${t.schoolEmail} = lower(${t.schoolEmail})`),
    // The mailbox is named with the address, and with its local part.
    check(
      "users_school_email_canonical_whole",
      sql`(${t.schoolEmail} is null) = (${t.schoolEmailCanonical} is null) and split_part(${t.schoolEmailCanonical}, '@', 1) = split_part(${t.schoolEmail}, '@', 1)`,
    ),
    // Candidate pool: school + gender among verified, unpaused students. `id` as a key
    // column allows a random-start keyset draw (id >= random uuid order by id limit k);
    // boost_ends_at makes the weighting, and "boosted ones only", index-only scans (a
    // separate boosted index was measured: the planner preferred this one even at 25k
    // students per gender). Queries must repeat the predicate: `is_verified and
    // school_verified_at is not null and paused_at is null` (the server spells it once).
    index("users_candidates_idx")
      .on(t.schoolId, t.gender, t.id, t.boostEndsAt)
      .where(sql`${t.isVerified} and ${t.schoolVerifiedAt} is not null and ${t.pausedAt} is null`),
    // Landing preview: students who opted in, by gender, grouped by school.
    index("users_preview_idx")
      .on(t.gender, t.schoolId, t.id)
      .where(
        sql`${t.showInPreview} and ${t.isVerified} and ${t.schoolVerifiedAt} is not null and ${t.pausedAt} is null`,
      ),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

import { sql } from "drizzle-orm";
import { check, integer, pgTable, serial, text, unique } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const schools = pgTable(
  "schools",
  {
    id: serial("id").primaryKey(),
    /** The seed upserts reference data by this name. */
    name: text("name").notNull().unique(),
    shortName: text("short_name").notNull(),
    /** The school's main e-mail domain, e.g. "stanford.edu" (shown as the example address). */
    domain: text("domain").notNull(),
    city: text("city").notNull(),
    /** Two-letter US state code. */
    state: text("state").notNull(),
    /** IANA zone, e.g. "America/Los_Angeles": quiet hours are local to the school. */
    timeZone: text("time_zone").notNull(),
    /** data:image/svg+xml;base64 URI of a generated monogram (never a trademarked logo). */
    icon: text("icon").notNull(),
    createdAt: createdAt(),
  },
  (t) => [check("schools_state_code", sql`${t.state} ~ '^[A-Z]{2}$'`)],
);

/**
 * The e-mail domains that prove membership of a school: an address at one of
 * them, or at a subdomain (cs.stanford.edu), once its code is entered. A
 * domain belongs to one school at most.
 */
export const schoolEmailDomains = pgTable(
  "school_email_domains",
  {
    domain: text("domain").primaryKey(),
    schoolId: integer("school_id")
      .notNull()
      .references(() => schools.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    // Lower case, no leading dot or @, at least one dot: what the address check compares with.
    check("school_email_domains_format", sql`${t.domain} ~ '^[a-z0-9-]+([.][a-z0-9-]+)+$'`),
    // A student's proof names (school, domain): the pair must exist, so a proof always belongs to the student's current school.
    // Also serves "the domains of a school" (school_id leads).
    unique("school_email_domains_school_domain").on(t.schoolId, t.domain),
  ],
);

export type School = typeof schools.$inferSelect;
export type NewSchool = typeof schools.$inferInsert;
export type SchoolEmailDomain = typeof schoolEmailDomains.$inferSelect;

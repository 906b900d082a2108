import { sql } from "drizzle-orm";
import { check, pgTable, serial, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

export const schools = pgTable(
  "schools",
  {
    id: serial("id").primaryKey(),
    /** The seed upserts reference data by this name. */
    name: text("name").notNull().unique(),
    shortName: text("short_name").notNull(),
    /** The school's .edu domain, e.g. "stanford.edu". */
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

export type School = typeof schools.$inferSelect;
export type NewSchool = typeof schools.$inferInsert;

import { sql } from "drizzle-orm";
import { check, index, pgTable, unique, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { users } from "./users";

/** A recipient (owner) has revealed a voter: one row per pair, so a reveal is paid at most once. */
export const unlocks = pgTable(
  "unlocks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    voterId: uuid("voter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("unlocks_owner_voter_unique").on(t.ownerId, t.voterId),
    // For the cascade when a voter's account is deleted.
    index("unlocks_voter_idx").on(t.voterId),
    check("unlocks_not_self", sql`${t.ownerId} <> ${t.voterId}`),
  ],
);

export type Unlock = typeof unlocks.$inferSelect;
export type NewUnlock = typeof unlocks.$inferInsert;

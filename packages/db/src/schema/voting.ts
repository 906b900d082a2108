import { SKIPS_IN_A_ROW, VOTES_PER_BATCH } from "@quad/contracts";
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "./columns";
import { roundStatusEnum } from "./enums";
import { users } from "./users";

export const prompts = pgTable("prompts", {
  id: serial("id").primaryKey(),
  text: text("text").notNull().unique(),
  active: boolean("active").notNull().default(true),
  createdAt: createdAt(),
});

/**
 * Per-voter allowances, kept off `users` because they change on every vote.
 * A row is created lazily (insert ... on conflict do update) on the first round.
 */
export const voterState = pgTable(
  "voter_state",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    votesInBatch: integer("votes_in_batch").notNull().default(0),
    cooldownUntil: timestamptz("cooldown_until"),
    skipsInRow: integer("skips_in_row").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      "voter_state_votes_in_batch_range",
      sql`${t.votesInBatch} between 0 and ${sql.raw(String(VOTES_PER_BATCH))}`,
    ),
    check("voter_state_skips_in_row_range", sql`${t.skipsInRow} between 0 and ${sql.raw(String(SKIPS_IN_A_ROW))}`),
  ],
);

/** A round shown to a voter: the server stores it so a vote is only accepted for its candidates. */
export const rounds = pgTable(
  "rounds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    voterId: uuid("voter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    promptId: integer("prompt_id")
      .notNull()
      .references(() => prompts.id),
    candidateAId: uuid("candidate_a_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    candidateBId: uuid("candidate_b_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: roundStatusEnum("status").notNull().default("open"),
    createdAt: createdAt(),
    closedAt: timestamptz("closed_at"),
  },
  (t) => [
    // At most one open round per voter: concurrent "open a round" requests cannot both win.
    uniqueIndex("rounds_one_open_per_voter").on(t.voterId).where(sql`${t.status} = 'open'`),
    // Recent rounds of a voter (candidates recently shown are not repeated).
    index("rounds_voter_created_idx").on(t.voterId, t.createdAt.desc().nullsFirst()),
    // Deleting a user cascades through these foreign keys; without them each delete scans rounds.
    // The voter column answers "was this student shown to this voter?" (who may block or report
    // whom) with one index probe, however many rounds showed a popular student.
    index("rounds_candidate_a_voter_idx").on(t.candidateAId, t.voterId),
    index("rounds_candidate_b_voter_idx").on(t.candidateBId, t.voterId),
    check("rounds_distinct_candidates", sql`${t.candidateAId} <> ${t.candidateBId}`),
    check("rounds_voter_not_candidate", sql`${t.voterId} <> ${t.candidateAId} and ${t.voterId} <> ${t.candidateBId}`),
    // An open round has no close time; every other status has one.
    check("rounds_closed_at_matches_status", sql`(${t.status} = 'open') = (${t.closedAt} is null)`),
  ],
);

/**
 * A vote received. The voter may be deleted later: the vote stays counted for
 * the recipient (voter_id becomes null) but can then never be revealed.
 * round_id is also nullable because deleting the voter cascades to the round.
 */
export const votes = pgTable(
  "votes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    roundId: uuid("round_id")
      .unique()
      .references(() => rounds.id, { onDelete: "set null" }),
    voterId: uuid("voter_id").references(() => users.id, { onDelete: "set null" }),
    recipientId: uuid("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    promptId: integer("prompt_id")
      .notNull()
      .references(() => prompts.id),
    createdAt: createdAt(),
    /** Set by the notification job once this vote was counted in an SMS. */
    notifiedAt: timestamptz("notified_at"),
  },
  (t) => [
    // Keyset paging of received votes: where recipient_id = $1 and (created_at, id) < ($2, $3)
    // order by created_at desc, id desc. Postgres' DESC means NULLS FIRST while Drizzle's
    // index .desc() emits NULLS LAST, so say nullsFirst() or the index cannot serve the order.
    index("votes_recipient_created_idx").on(t.recipientId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Revealing a voter: every vote that voter cast for this recipient.
    index("votes_voter_recipient_idx").on(t.voterId, t.recipientId),
    // The notification job reads only the not-yet-notified votes: a small partial index.
    index("votes_unnotified_idx").on(t.recipientId).where(sql`${t.notifiedAt} is null`),
    check("votes_not_for_self", sql`${t.voterId} is null or ${t.voterId} <> ${t.recipientId}`),
  ],
);

export type Prompt = typeof prompts.$inferSelect;
export type NewPrompt = typeof prompts.$inferInsert;
export type VoterState = typeof voterState.$inferSelect;
export type NewVoterState = typeof voterState.$inferInsert;
export type Round = typeof rounds.$inferSelect;
export type NewRound = typeof rounds.$inferInsert;
export type Vote = typeof votes.$inferSelect;
export type NewVote = typeof votes.$inferInsert;

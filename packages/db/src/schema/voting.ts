import { SKIPS_IN_A_ROW, VOTES_PER_BATCH } from "@quad/contracts";
import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, serial, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "./columns";
import { roundStatusEnum } from "./enums";
import { users } from "./users";

/**
 * The UTC hour a vote was delivered in, as the received-votes index and its
 * queries spell it (the index serves only this exact expression). A
 * timestamptz truncated directly would depend on the session's time zone,
 * which an index cannot.
 */
export const DELIVERY_HOUR = sql`date_trunc('hour', (delivered_at at time zone 'UTC'))`;

export const prompts = pgTable("prompts", {
  id: serial("id").primaryKey(),
  text: text("text").notNull().unique(),
  active: boolean("active").notNull().default(true),
  createdAt: createdAt(),
});

/**
 * Per-voter allowances and the voter's current round, kept off `users`
 * because they change on every round and vote. A row is created lazily
 * (insert ... on conflict do update) when the first round opens.
 *
 * The round lives here rather than as a row of its own (decision 0020): one
 * row per voter makes "at most one open round" structural, opening a round
 * and voting in it are updates of this row that touch no indexed column
 * (HOT, no index entry, no foreign-key check), and the row also carries the
 * recently shown prompts and candidates the next draw avoids. The round's
 * columns keep the last round after it closes (`round_open` false), so a
 * closed round can be re-read without another table. They carry no foreign
 * keys: every statement that shows or counts a round joins `users` again
 * (shown, same school, no block), so an id of a student who left or deleted
 * their account is never shown nor voted for.
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
    roundPromptId: integer("round_prompt_id"),
    roundCandidateAId: uuid("round_candidate_a_id"),
    roundCandidateBId: uuid("round_candidate_b_id"),
    roundOpenedAt: timestamptz("round_opened_at"),
    roundOpen: boolean("round_open").notNull().default(false),
    /** Newest first: the prompts of the last PROMPT_MEMORY_ROUNDS rounds and both candidates of the last RECENT_ROUNDS. */
    recentPromptIds: integer("recent_prompt_ids")
      .array()
      .notNull()
      .default(sql`'{}'`),
    recentCandidateIds: uuid("recent_candidate_ids")
      .array()
      .notNull()
      .default(sql`'{}'`),
  },
  (t) => [
    check("voter_state_votes_in_batch_range", sql`${t.votesInBatch} between 0 and ${sql.raw(String(VOTES_PER_BATCH))}`),
    check("voter_state_skips_in_row_range", sql`${t.skipsInRow} between 0 and ${sql.raw(String(SKIPS_IN_A_ROW))}`),
    check(
      "voter_state_round_complete",
      sql`not ${t.roundOpen} or (${t.roundPromptId} is not null and ${t.roundCandidateAId} is not null and ${t.roundCandidateBId} is not null and ${t.roundOpenedAt} is not null)`,
    ),
    check("voter_state_round_distinct_candidates", sql`${t.roundCandidateAId} <> ${t.roundCandidateBId}`),
    check(
      "voter_state_round_voter_not_candidate",
      sql`${t.userId} <> ${t.roundCandidateAId} and ${t.userId} <> ${t.roundCandidateBId}`,
    ),
  ],
);

/**
 * Rounds that ended without a vote (skipped, or closed because a candidate
 * left, was blocked or reported), and every round of any status from before
 * decision 0020. With the votes (recipient and `shown_with_id`) and the
 * voter's current round on voter_state, they are the history of who was
 * shown to whom, which decides whom a student may block or report.
 */
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
    status: roundStatusEnum("status").notNull(),
    createdAt: createdAt(),
    closedAt: timestamptz("closed_at"),
  },
  (t) => [
    // Deleting a voter cascades through this foreign key; without it each delete scans rounds.
    index("rounds_voter_created_idx").on(t.voterId, t.createdAt.desc().nullsFirst()),
    // The same for the candidates. The voter column answers "was this student shown to this voter?"
    // (who may block or report whom) with one index probe, however many rounds showed a popular student.
    index("rounds_candidate_a_voter_idx").on(t.candidateAId, t.voterId),
    index("rounds_candidate_b_voter_idx").on(t.candidateBId, t.voterId),
    check("rounds_distinct_candidates", sql`${t.candidateAId} <> ${t.candidateBId}`),
    check("rounds_voter_not_candidate", sql`${t.voterId} <> ${t.candidateAId} and ${t.voterId} <> ${t.candidateBId}`),
    // An open round lives on voter_state; a row here has ended, with a close time.
    check("rounds_ended", sql`${t.status} <> 'open'`),
    check("rounds_closed_at_matches_status", sql`(${t.status} = 'open') = (${t.closedAt} is null)`),
  ],
);

/**
 * A vote received. The voter may be deleted later: the vote stays counted for
 * the recipient (voter_id becomes null) but can then never be revealed.
 * One vote per round is kept by the vote's conditional update of the
 * voter's open round (voter_state), which the same statement closes.
 */
export const votes = pgTable(
  "votes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    voterId: uuid("voter_id").references(() => users.id, { onDelete: "set null" }),
    recipientId: uuid("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    promptId: integer("prompt_id")
      .notNull()
      .references(() => prompts.id),
    /**
     * The other candidate of the round: shown to the voter beside the recipient (null on votes from
     * before decision 0020, whose rounds are kept). No foreign key or index: it is read only to tell
     * whether a student was shown to the voter, by the voter's own votes (votes_voter_recipient_idx).
     */
    shownWithId: uuid("shown_with_id"),
    /** When it was cast: never shown to anyone, nor anything ordered or paged by it. */
    createdAt: createdAt(),
    /**
     * When it reaches the recipient, drawn at random within the delivery window after it was cast
     * (docs/decisions/0009-locked-cards-carry-nothing-of-the-voter.md). Before it the vote exists
     * for no one but the database: no card, count, event or notice. The default is only for the
     * previous release's inserts during a rolling deploy (it shows votes as cast anyway); every
     * vote this release stores names its moment.
     */
    deliveredAt: timestamptz("delivered_at").notNull().defaultNow(),
    /** Set by the notification job once this vote was counted in an SMS. */
    notifiedAt: timestamptz("notified_at"),
  },
  (t) => [
    // Keyset paging of received votes by delivery hour, then id (a card's time is its hour, and the
    // order within an hour must say no more): where recipient_id = $1 and (hour, id) < ($2, $3)
    // order by hour desc, id desc, read backwards. delivered_at rides along so the page's keys
    // and the delivered check come from the index alone.
    index("votes_recipient_delivery_idx").on(t.recipientId, DELIVERY_HOUR, t.id, t.deliveredAt),
    // The live streams' delivery tick: the votes whose moment came since the last tick.
    index("votes_delivered_idx").on(t.deliveredAt),
    // The previous release's inbox index, kept while it may still serve (a rolling deploy, a rollback);
    // a later contract migration drops it.
    index("votes_recipient_hour_idx").on(
      t.recipientId,
      sql`date_trunc('hour', (created_at at time zone 'UTC'))`,
      t.id,
      t.createdAt,
    ),
    // Revealing a voter: every vote that voter cast for this recipient.
    index("votes_voter_recipient_idx").on(t.voterId, t.recipientId),
    // The notification job reads only the not-yet-notified votes: a small partial index, whose delivery
    // times leave out the votes not yet delivered without reading the table (the previous release's
    // job, by recipient alone, is served by it too).
    index("votes_unnotified_delivery_idx")
      .on(t.recipientId, t.deliveredAt)
      .where(sql`${t.notifiedAt} is null`),
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

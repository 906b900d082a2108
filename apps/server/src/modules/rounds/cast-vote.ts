import { VOTE_COOLDOWN_MS, VOTES_PER_BATCH, type Gender } from "@quad/contracts";
import { isCheckViolation, preparedStatement, type Database } from "@quad/db";
import { sql, type SQL } from "drizzle-orm";
import { memberSql, shownSql } from "../schools/membership";
import { dateOfMs, epochMs, notBlockedEitherWay } from "./sql-values";

/** Why a vote was refused (it stored nothing then), as the statement's snapshot shows. */
export type VoteRefusal =
  | {
      reason:
        "no_voter" | "not_verified" | "not_member" | "no_open_round" | "not_in_round" | "blocked" | "candidate_gone";
    }
  | { reason: "cooldown"; cooldownUntil: Date }
  /** Everything held when the statement started, yet a concurrent vote closed the round or used the allowance first. */
  | { reason: "lost_race" };

export type VoteOutcome =
  { stored: true; disabled: boolean; availableAt?: Date; voterId: string } | ({ stored: false } & VoteRefusal);

interface Row {
  votesInBatch: number | null;
  /** The voter of the stored vote (null when nothing was stored): their open apps hear of it. */
  storedBy: string | null;
  voterId: string | null;
  canVote: boolean | null;
  member: boolean | null;
  cooldownUntilMs: number | null;
  roundPromptId: number | null;
  candidateAId: string | null;
  candidateBId: string | null;
  blocked: boolean | null;
  candidateShowable: boolean | null;
}

/**
 * POST /votes/store in one statement (one round trip, no transaction held
 * open across round trips). Data-modifying CTEs:
 *
 * - `counted` closes the voter's open round on voter_state and counts the
 *   vote there, only if the vote is for one of the round's candidates with
 *   its prompt, the voter is not in cooldown, neither blocked the other, and
 *   the candidate may still be shown to the voter (verified, not paused or
 *   held, at the voter's school): a round kept open past a candidate's
 *   leaving carries no vote to them. A finished cooldown starts a new batch;
 *   the 12th vote starts the cooldown. Its row lock serialises concurrent
 *   votes: the second re-checks `round_open` and the cooldown on the row the
 *   first left, and matches nothing, so a round is used once. The table's
 *   CHECK (votes_in_batch ≤ 12) refuses the whole statement if a vote ever
 *   got past the allowance. No indexed column changes: a HOT update.
 * - `stored` inserts the vote, with the candidate shown beside the recipient
 *   (the round's columns stay on the row, so `counted` can return them) and
 *   the moment it is delivered.
 * - `preferred` saves a preference sent with it.
 *
 * When nothing was stored, the final SELECT reads the snapshot the statement
 * started from, so a refused vote can be explained without another query; a
 * stored vote skips those lookups.
 */
const voteStatement = preparedStatement<{
  phone: string;
  candidateId: string;
  promptId: number;
  preference: Gender | null;
  /** ISO 8601, as are the other times. */
  now: string;
  availableAt: string;
  deliveredAt: string;
}>((p) => {
  const now = sql`${p.now}::timestamptz`;
  const availableAt = sql`${p.availableAt}::timestamptz`;
  const candidate = sql`${p.candidateId}::uuid`;
  const showable = (school: SQL) =>
    sql`exists (select 1 from users c where c.id = ${candidate} and ${shownSql("c")} and c.school_id = ${school})`;
  const preference = sql`${p.preference}::gender`;
  // The batch a vote counts in: a finished cooldown starts a new one.
  const used = sql`(case when s.cooldown_until <= ${now} then 1 else s.votes_in_batch + 1 end)`;
  return sql`
    with voter as (
      select id, school_id from users
      where phone = ${p.phone} and ${memberSql("users")} and school_id is not null and gender is not null
    ), counted as (
      update voter_state s set
        round_open = false,
        votes_in_batch = ${used},
        cooldown_until = case when ${used} >= ${VOTES_PER_BATCH} then ${availableAt} end,
        skips_in_row = 0,
        updated_at = ${now}
      from voter
      where s.user_id = voter.id and s.round_open and s.round_prompt_id = ${p.promptId}::bigint
        and ${candidate} in (s.round_candidate_a_id, s.round_candidate_b_id)
        and not coalesce(s.cooldown_until > ${now}, false)
        and ${notBlockedEitherWay(sql`voter.id`, candidate)}
        and ${showable(sql`voter.school_id`)}
      returning s.user_id, s.votes_in_batch, s.round_prompt_id,
                case when s.round_candidate_a_id = ${candidate} then s.round_candidate_b_id else s.round_candidate_a_id end as shown_with_id
    ), stored as (
      insert into votes (voter_id, recipient_id, shown_with_id, prompt_id, created_at, delivered_at)
      select user_id, ${candidate}, shown_with_id, round_prompt_id, ${now}, ${p.deliveredAt}::timestamptz from counted
    ), preferred as (
      update users set preference = ${preference}, updated_at = ${now}
      from counted
      where users.id = counted.user_id and ${preference} is not null and users.preference is distinct from ${preference}
      returning users.id
    )
    select (select votes_in_batch from counted) as "votesInBatch",
           (select user_id from counted) as "storedBy",
           u.id as "voterId", (u.is_verified and u.school_id is not null and u.gender is not null) as "canVote", ${memberSql("u")} as member,
           ${epochMs(sql`s.cooldown_until`)} as "cooldownUntilMs",
           case when s.round_open then s.round_prompt_id end as "roundPromptId",
           s.round_candidate_a_id as "candidateAId", s.round_candidate_b_id as "candidateBId",
           case when u.id is not null then not ${notBlockedEitherWay(sql`u.id`, candidate)} end as blocked,
           case when u.id is not null then ${showable(sql`u.school_id`)} end as "candidateShowable"
    from (select 1) as one
    left join users u on u.phone = ${p.phone} and not exists (select 1 from counted)
    left join voter_state s on s.user_id = u.id`;
});

export async function storeVote(
  db: Database,
  vote: { phone: string; candidateId: string; promptId: number; preference?: Gender; now: Date; deliveredAt: Date },
): Promise<VoteOutcome> {
  const availableAt = new Date(vote.now.getTime() + VOTE_COOLDOWN_MS);
  let row: Row | undefined;
  try {
    [row] = await voteStatement<Row>(db, {
      phone: vote.phone,
      candidateId: vote.candidateId,
      promptId: vote.promptId,
      preference: vote.preference ?? null,
      now: vote.now.toISOString(),
      availableAt: availableAt.toISOString(),
      deliveredAt: vote.deliveredAt.toISOString(),
    });
  } catch (error) {
    // A vote past the allowance (only a race the conditions above did not see could get here).
    if (isCheckViolation(error, "voter_state_votes_in_batch_range")) return { stored: false, reason: "lost_race" };
    throw error;
  }
  if (!row) throw new Error("storeVote: the statement answered no row");
  if (row.votesInBatch !== null) {
    const disabled = row.votesInBatch >= VOTES_PER_BATCH;
    const stored = { stored: true as const, disabled, voterId: row.storedBy! };
    return disabled ? { ...stored, availableAt } : stored;
  }
  return { stored: false, ...whyRefused(row, vote) };
}

/** In the order the rules are checked: who, allowance, round, blocks. */
function whyRefused(row: Row, vote: { candidateId: string; promptId: number; now: Date }): VoteRefusal {
  if (row.voterId === null) return { reason: "no_voter" };
  if (!row.canVote) return { reason: "not_verified" };
  if (!row.member) return { reason: "not_member" };
  const cooldownUntil = dateOfMs(row.cooldownUntilMs);
  if (cooldownUntil && cooldownUntil > vote.now) return { reason: "cooldown", cooldownUntil };
  if (row.roundPromptId === null) return { reason: "no_open_round" };
  if (
    row.roundPromptId !== vote.promptId ||
    (vote.candidateId !== row.candidateAId && vote.candidateId !== row.candidateBId)
  ) {
    return { reason: "not_in_round" };
  }
  if (row.blocked) return { reason: "blocked" };
  if (row.candidateShowable === false) return { reason: "candidate_gone" };
  return { reason: "lost_race" };
}

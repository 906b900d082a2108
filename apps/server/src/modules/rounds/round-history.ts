import type { Database } from "@quad/db";
import { sql, type SQL } from "drizzle-orm";

/** How a round ended without a vote (a vote is its own record, in votes). */
export type EndedStatus = "skipped" | "closed";

/**
 * The body of a CTE that records in rounds (the history of who was shown to
 * whom) the rounds an earlier CTE, named `closed`, closed and returned with
 * ENDED_COLUMNS. A round whose candidate or prompt is gone since it opened
 * is not recorded: a deleted student cannot be reported or blocked anyway.
 */
export const recordEnded = (closed: string, status: EndedStatus, now: SQL): SQL => sql`
  insert into rounds (voter_id, prompt_id, candidate_a_id, candidate_b_id, status, created_at, closed_at)
  select c.user_id, c.round_prompt_id, c.round_candidate_a_id, c.round_candidate_b_id, ${status}::round_status, c.round_opened_at, ${now}
  from ${sql.identifier(closed)} c
  where exists (select 1 from users a where a.id = c.round_candidate_a_id)
    and exists (select 1 from users b where b.id = c.round_candidate_b_id)
    and exists (select 1 from prompts p where p.id = c.round_prompt_id)
  returning id`;

/** What a closing update of voter_state returns for recordEnded. */
export const ENDED_COLUMNS = sql.raw(
  "user_id, round_prompt_id, round_candidate_a_id, round_candidate_b_id, round_opened_at",
);

/**
 * Closes the open rounds of these voters that show these candidates, and
 * records them as closed: a block closes both students' rounds showing the
 * other, a report the reporter's round showing the reported student.
 */
export async function closeRoundsShowing(
  db: Database,
  shown: { voterId: string; candidateId: string }[],
  now: Date,
): Promise<void> {
  if (shown.length === 0) return;
  const at = sql`${now.toISOString()}::timestamptz`;
  const showing = sql.join(
    shown.map(
      ({ voterId, candidateId }) =>
        sql`(user_id = ${voterId}::uuid and ${candidateId}::uuid in (round_candidate_a_id, round_candidate_b_id))`,
    ),
    sql` or `,
  );
  await db.execute(sql`
    with closed as (
      update voter_state set round_open = false, updated_at = ${at}
      where round_open and (${showing})
      returning ${ENDED_COLUMNS}
    ), recorded as (${recordEnded("closed", "closed", at)})
    select count(*) from recorded`);
}

/** Closes the voter's open round (only the one read: opened then, with those candidates) because a candidate left since; records it as closed. */
export async function closeLeftRound(
  db: Database,
  voterId: string,
  round: { openedAt: Date; candidateIds: [string, string] },
  now: Date,
): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  await db.execute(sql`
    with closed as (
      update voter_state set round_open = false, updated_at = ${at}
      where user_id = ${voterId}::uuid and round_open and round_opened_at = ${round.openedAt.toISOString()}::timestamptz
        and round_candidate_a_id = ${round.candidateIds[0]}::uuid and round_candidate_b_id = ${round.candidateIds[1]}::uuid
      returning ${ENDED_COLUMNS}
    ), recorded as (${recordEnded("closed", "closed", at)})
    select count(*) from recorded`);
}

import type { CandidateOption, Gender } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { sql } from "drizzle-orm";
import { shownSql } from "../schools/membership";
import { PROMPT_MEMORY_ROUNDS, RECENT_ROUNDS } from "./round-state";
import { fromJson, notBlockedEitherWay, publicProfileJson, toCandidate, type PublicProfileRow } from "./sql-values";

export interface OpenedRound {
  /**
   * Whether the round was opened. False when a drawn candidate may not be shown (the cached pool
   * was stale), or when the voter already had an open round (a concurrent request opened one).
   */
  opened: boolean;
  promptText: string | null;
  /** The drawn candidates who may be shown, by id. */
  eligible: Map<string, CandidateOption>;
}

/**
 * Opens a round for a drawn pair in one statement, and only if both may be
 * shown right now (verified, a proved member, not paused or held, the voter's school and shown
 * gender, never the voter, no block either way): the pool the pair was drawn
 * from is a cache, the database decides. The round is written on the
 * voter's voter_state row (created on the first round), only while no round
 * is open there: a concurrent opener waits for the row lock, then finds the
 * round open and changes nothing. The same update puts the round's prompt
 * and candidates in front of the recent ones. No indexed column changes, so
 * it is a HOT update with no index entry and no foreign-key check. Answers
 * the candidates' public profiles and the prompt's text with it.
 */
const openStatement = preparedStatement<{
  voterId: string;
  a: string;
  b: string;
  schoolId: number;
  gender: Gender;
  promptId: number;
  now: string;
}>((p) => {
  const voter = sql`${p.voterId}::uuid`;
  const pair = sql`array[${p.a}::uuid, ${p.b}::uuid]`;
  return sql`
    with eligible as (
      select c.id, c.photo_key, c.first_name, c.graduation_year, c.organizations, c.interests
      from users c
      where c.id in (${p.a}::uuid, ${p.b}::uuid) and c.id <> ${voter}
        and ${shownSql("c")} and c.school_id = ${p.schoolId} and c.gender = ${p.gender}::gender
        and ${notBlockedEitherWay(voter, sql`c.id`)}
    ), opened as (
      insert into voter_state as s (user_id, round_prompt_id, round_candidate_a_id, round_candidate_b_id, round_opened_at, round_open,
                                    recent_prompt_ids, recent_candidate_ids, updated_at)
      select ${voter}, ${p.promptId}::int, ${p.a}::uuid, ${p.b}::uuid, ${p.now}::timestamptz, true,
             array[${p.promptId}::int], ${pair}, ${p.now}::timestamptz
      where (select count(*) from eligible) = 2
      on conflict (user_id) do update set
        round_prompt_id = excluded.round_prompt_id,
        round_candidate_a_id = excluded.round_candidate_a_id,
        round_candidate_b_id = excluded.round_candidate_b_id,
        round_opened_at = excluded.round_opened_at,
        round_open = true,
        recent_prompt_ids = (excluded.recent_prompt_ids || s.recent_prompt_ids)[1:${sql.raw(String(PROMPT_MEMORY_ROUNDS))}],
        recent_candidate_ids = (excluded.recent_candidate_ids || s.recent_candidate_ids)[1:${sql.raw(String(2 * RECENT_ROUNDS))}],
        updated_at = excluded.updated_at
      where not s.round_open
      returning 1
    )
    select ${publicProfileJson("c")} as profile, exists (select 1 from opened) as opened,
           (select text from prompts where id = ${p.promptId}) as "promptText"
    from eligible c`;
});

export async function openRound(
  db: Database,
  round: { voterId: string; schoolId: number; gender: Gender; pair: [string, string]; promptId: number; now: Date },
): Promise<OpenedRound> {
  const [a, b] = round.pair;
  const rows = await openStatement<{ profile: unknown; opened: boolean; promptText: string | null }>(db, {
    voterId: round.voterId,
    a,
    b,
    schoolId: round.schoolId,
    gender: round.gender,
    promptId: round.promptId,
    now: round.now.toISOString(),
  });
  const eligible = new Map<string, CandidateOption>();
  for (const row of rows) {
    const profile = toCandidate(fromJson<PublicProfileRow>(row.profile));
    eligible.set(profile.id, profile);
  }
  return { opened: rows[0]?.opened ?? false, promptText: rows[0]?.promptText ?? null, eligible };
}

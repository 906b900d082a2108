import type { CandidateOption, Gender } from "@quad/contracts";
import { queryPrepared, type Database } from "@quad/db";
import { sql } from "drizzle-orm";
import { at, fromJson, notBlockedEitherWay, publicProfileJson, toCandidate, type PublicProfileRow } from "./sql-values";

export interface InsertedRound {
  /** Null when a drawn candidate may not be shown (the cached pool was stale): nothing was stored. */
  roundId: string | null;
  promptText: string | null;
  /** The drawn candidates who may be shown, by id. */
  eligible: Map<string, CandidateOption>;
}

/**
 * Stores a round for a drawn pair in one statement, and only if both may be
 * shown right now (verified, not paused or held, the voter's school and shown
 * gender, never the voter, no block either way): the pool the pair was drawn
 * from is a cache, the database decides. Answers the candidates' public
 * profiles and the prompt's text with it. A concurrent opener makes the
 * insert fail on rounds_one_open_per_voter, which the caller handles.
 */
export async function insertRound(
  db: Database,
  round: { voterId: string; schoolId: number; gender: Gender; pair: [string, string]; promptId: number; now: Date },
): Promise<InsertedRound> {
  const [a, b] = round.pair;
  const voter = sql`${round.voterId}::uuid`;
  const rows = await queryPrepared<{ profile: unknown; roundId: string | null; promptText: string | null }>(
    db,
    sql`
      with eligible as (
        select c.id, c.photo_key, c.first_name, c.graduation_year, c.organizations, c.interests
        from users c
        where c.id in (${a}::uuid, ${b}::uuid) and c.id <> ${voter}
          and c.is_verified and c.paused_at is null and c.school_id = ${round.schoolId} and c.gender = ${round.gender}::gender
          and ${notBlockedEitherWay(voter, sql`c.id`)}
      ), opened as (
        insert into rounds (voter_id, prompt_id, candidate_a_id, candidate_b_id, created_at)
        select ${voter}, ${round.promptId}, ${a}::uuid, ${b}::uuid, ${at(round.now)}
        where (select count(*) from eligible) = 2
        returning id
      )
      select ${publicProfileJson("c")} as profile, (select id from opened) as "roundId",
             (select text from prompts where id = ${round.promptId}) as "promptText"
      from eligible c`,
  );
  const eligible = new Map<string, CandidateOption>();
  for (const row of rows) {
    const profile = toCandidate(fromJson<PublicProfileRow>(row.profile));
    eligible.set(profile.id, profile);
  }
  return { roundId: rows[0]?.roundId ?? null, promptText: rows[0]?.promptText ?? null, eligible };
}

import type { CandidateOption, Gender } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { sql } from "drizzle-orm";
import { shownSql } from "../school-email/membership";
import { fromJson, notBlockedEitherWay, publicProfileJson, toCandidate, type PublicProfileRow } from "./sql-values";

export interface InsertedRound {
  /** Null when a drawn candidate may not be shown (the cached pool was stale): nothing was stored. */
  roundId: string | null;
  promptText: string | null;
  /** The drawn candidates who may be shown, by id. */
  eligible: Map<string, CandidateOption>;
}

/**
 * Stores a round for a drawn pair in one statement, and only if both may be
 * shown right now (verified, a proved member, not paused or held, the voter's school and shown
 * gender, never the voter, no block either way): the pool the pair was drawn
 * from is a cache, the database decides. Answers the candidates' public
 * profiles and the prompt's text with it. A concurrent opener makes the
 * insert fail on rounds_one_open_per_voter, which the caller handles.
 */
const insertStatement = preparedStatement<{ voterId: string; a: string; b: string; schoolId: number; gender: Gender; promptId: number; now: string }>((p) => {
  const voter = sql`${p.voterId}::uuid`;
  return sql`
    with eligible as (
      select c.id, c.photo_key, c.first_name, c.graduation_year, c.organizations, c.interests
      from users c
      where c.id in (${p.a}::uuid, ${p.b}::uuid) and c.id <> ${voter}
        and ${shownSql("c")} and c.school_id = ${p.schoolId} and c.gender = ${p.gender}::gender
        and ${notBlockedEitherWay(voter, sql`c.id`)}
    ), opened as (
      insert into rounds (voter_id, prompt_id, candidate_a_id, candidate_b_id, created_at)
      select ${voter}, ${p.promptId}, ${p.a}::uuid, ${p.b}::uuid, ${p.now}::timestamptz
      where (select count(*) from eligible) = 2
      returning id
    )
    select ${publicProfileJson("c")} as profile, (select id from opened) as "roundId",
           (select text from prompts where id = ${p.promptId}) as "promptText"
    from eligible c`;
});

export async function insertRound(
  db: Database,
  round: { voterId: string; schoolId: number; gender: Gender; pair: [string, string]; promptId: number; now: Date },
): Promise<InsertedRound> {
  const [a, b] = round.pair;
  const rows = await insertStatement<{ profile: unknown; roundId: string | null; promptText: string | null }>(db, {
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
  return { roundId: rows[0]?.roundId ?? null, promptText: rows[0]?.promptText ?? null, eligible };
}

import type { CandidateOption, Gender } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { sql } from "drizzle-orm";
import { memberSql, shownSql } from "../school-email/membership";
import { PROMPT_MEMORY_ROUNDS, RECENT_ROUNDS } from "./round-state";
import {
  PREFERRED_GENDER,
  dateOfMs,
  epochMs,
  fromJson,
  notBlockedEitherWay,
  publicProfileJson,
  toCandidate,
  type PublicProfileRow,
} from "./sql-values";

/** What the one-statement opening found, when it opened nothing the caller falls back on two round trips. */
export type ListedOpening =
  | {
      opened: true;
      promptId: number;
      promptText: string;
      pair: [CandidateOption, CandidateOption];
      skipsInRow: number;
      stale: boolean;
    }
  | {
      opened: false;
      /** The voter by phone, when a member with a school and a gender; null otherwise (the fallback explains why). */
      voterId: string | null;
      cooldownUntil: Date | null;
      skipsInRow: number;
      /** The round already open, when both its candidates and its prompt may still be shown (as readRoundState answers it). */
      open: { promptId: number; promptText: string; pair: [CandidateOption, CandidateOption] } | null;
      /** A listed candidate may no longer be shown: the cached pool is stale. */
      stale: boolean;
    };

interface Row {
  voterId: string | null;
  cooldownUntilMs: number | null;
  skipsInRow: number | null;
  opened: boolean;
  pair: unknown;
  promptId: number | null;
  promptText: string | null;
  openPromptId: number | null;
  openPromptText: string | null;
  openA: unknown;
  openB: unknown;
  stale: boolean;
}

/**
 * Opens a round from a hint in one statement: the voter by phone (a member
 * with a school and a gender, as votingState requires), and only if the
 * hint's school and shown gender are still theirs, they are not in cooldown,
 * no round is open, and the pool is big enough that drawPair would exclude
 * every recent candidate (`maxExcluded`: otherwise its keep-in-play rule
 * decides, in JS). Then the first two of the weighted short list who may be
 * shown (as openStatement checks) and are not recent, and the first prompt of
 * the shuffled list not used recently (else the first), and the same
 * conditional upsert as openStatement. When anything is off it writes
 * nothing and says what it saw: the cooldown, and the open round with its
 * candidates who may still be shown (as readRoundState reads them), so a
 * reload is answered in this one statement too.
 */
const openListedStatement = preparedStatement<{
  phone: string;
  voterId: string;
  schoolId: number;
  gender: Gender;
  /** Postgres array literals: one parameter each on both drivers. */
  candidateIds: string;
  promptIds: string;
  maxExcluded: number;
  now: string;
}>((p) => {
  const now = sql`${p.now}::timestamptz`;
  return sql`
    with voter as (
      select u.id, u.school_id, ${PREFERRED_GENDER} as shown,
             coalesce(s.round_open, false) as round_open, s.round_prompt_id, s.round_candidate_a_id, s.round_candidate_b_id, s.cooldown_until, coalesce(s.skips_in_row, 0) as skips_in_row,
             coalesce(s.recent_prompt_ids, '{}') as recent_prompts, coalesce(s.recent_candidate_ids, '{}') as recent_candidates
      from users u
      left join voter_state s on s.user_id = u.id
      where u.phone = ${p.phone} and ${memberSql("u")} and u.school_id is not null and u.gender is not null
    ), ready as (
      select v.* from voter v
      where v.id = ${p.voterId}::uuid and v.school_id = ${p.schoolId} and v.shown = ${p.gender}::gender
        and not v.round_open and not coalesce(v.cooldown_until > ${now}, false)
        and (select count(*) from (select v.id union select unnest(v.recent_candidates)
                                   union select blocked_id from blocks where blocker_id = v.id
                                   union select blocker_id from blocks where blocked_id = v.id) x) <= ${p.maxExcluded}::int
    ), listed as (
      select l.id, l.ord, c.id is not null as shown, ${publicProfileJson("c")} as profile,
             c.id is not null and c.id <> r.id and not (c.id = any (r.recent_candidates))
               and ${notBlockedEitherWay(sql`r.id`, sql`c.id`)} as pickable
      from ready r
      cross join unnest(${p.candidateIds}::uuid[]) with ordinality as l(id, ord)
      left join users c on c.id = l.id and ${shownSql("c")} and c.school_id = r.school_id and c.gender = r.shown
    ), pair as (
      select array_agg(id order by ord) as ids, json_agg(profile order by ord) as profiles
      from (select id, ord, profile from listed where pickable order by ord limit 2) first_two
    ), prompt as (
      select q.id, q.text
      from ready r
      cross join unnest(${p.promptIds}::int[]) with ordinality as l(id, ord)
      join prompts q on q.id = l.id
      order by l.id = any (r.recent_prompts), l.ord
      limit 1
    ), opened as (
      insert into voter_state as s (user_id, round_prompt_id, round_candidate_a_id, round_candidate_b_id, round_opened_at, round_open,
                                    recent_prompt_ids, recent_candidate_ids, updated_at)
      select r.id, q.id, pair.ids[1], pair.ids[2], ${now}, true, array[q.id], pair.ids, ${now}
      from ready r, prompt q, pair
      where cardinality(pair.ids) = 2
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
    select v.id as "voterId", ${epochMs(sql`v.cooldown_until`)} as "cooldownUntilMs", v.skips_in_row as "skipsInRow",
           exists (select 1 from opened) as opened, (select profiles from pair) as pair,
           (select id from prompt) as "promptId", (select text from prompt) as "promptText",
           exists (select 1 from listed where not shown) as stale,
           p.id as "openPromptId", p.text as "openPromptText",
           case when a.id is not null then ${publicProfileJson("a")} end as "openA",
           case when b.id is not null then ${publicProfileJson("b")} end as "openB"
    from (select 1) as one
    left join voter v on true
    left join prompts p on v.round_open and p.id = v.round_prompt_id
    left join users a on v.round_open and a.id = v.round_candidate_a_id and ${shownSql("a")}
      and a.school_id = v.school_id and a.gender = v.shown and ${notBlockedEitherWay(sql`v.id`, sql`a.id`)}
    left join users b on v.round_open and b.id = v.round_candidate_b_id and ${shownSql("b")}
      and b.school_id = v.school_id and b.gender = v.shown and ${notBlockedEitherWay(sql`v.id`, sql`b.id`)}`;
});

export async function openListedRound(
  db: Database,
  round: {
    phone: string;
    voterId: string;
    schoolId: number;
    gender: Gender;
    candidateIds: readonly string[];
    promptIds: readonly number[];
    maxExcluded: number;
    now: Date;
  },
): Promise<ListedOpening> {
  const [row] = await openListedStatement<Row>(db, {
    phone: round.phone,
    voterId: round.voterId,
    schoolId: round.schoolId,
    gender: round.gender,
    candidateIds: `{${round.candidateIds.join(",")}}`,
    promptIds: `{${round.promptIds.join(",")}}`,
    maxExcluded: round.maxExcluded,
    now: round.now.toISOString(),
  });
  if (!row) throw new Error("openListedRound: the statement answered no row");
  if (row.opened) {
    const [a, b] = fromJson<PublicProfileRow[]>(row.pair);
    return {
      opened: true,
      promptId: row.promptId!,
      promptText: row.promptText!,
      pair: [toCandidate(a!), toCandidate(b!)],
      skipsInRow: row.skipsInRow!,
      stale: row.stale,
    };
  }
  const a = fromJson<PublicProfileRow | null>(row.openA);
  const b = fromJson<PublicProfileRow | null>(row.openB);
  return {
    opened: false,
    voterId: row.voterId,
    cooldownUntil: dateOfMs(row.cooldownUntilMs),
    skipsInRow: row.skipsInRow ?? 0,
    open:
      a && b && row.openPromptText !== null
        ? { promptId: row.openPromptId!, promptText: row.openPromptText, pair: [toCandidate(a), toCandidate(b)] }
        : null,
    stale: row.stale,
  };
}

import type { CandidateOption, Gender } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { sql } from "drizzle-orm";
import { memberSql, shownSql } from "../schools/membership";
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

/** How far back "recently shown" and "prompt already used" look. */
export const RECENT_ROUNDS = 50;
export const PROMPT_MEMORY_ROUNDS = 24;

/** The open round as stored on voter_state, with its candidates when both may still be shown. */
export interface OpenRound {
  /** When it opened: with the candidates, what names this round and no later one. */
  openedAt: Date;
  promptId: number;
  promptText: string;
  candidateIds: [string, string];
  /** Null when a candidate left (paused, held, unverified, blocked) since the round opened, or its prompt is gone. */
  pair: [CandidateOption, CandidateOption] | null;
}

/** Everything `GET /prompts/random` needs to decide, read in one statement. */
export interface RoundState {
  voter: {
    id: string;
    schoolId: number | null;
    gender: Gender | null;
    preference: Gender | null;
    isVerified: boolean;
    member: boolean;
  };
  /** The gender this voter is shown (their preference, else the other gender). */
  shownGender: Gender;
  cooldownUntil: Date | null;
  skipsInRow: number;
  open: OpenRound | null;
  /** Newest first: the prompts of the last PROMPT_MEMORY_ROUNDS rounds. */
  recentPrompts: number[];
  /** Newest first: both candidates of each of the last RECENT_ROUNDS rounds. */
  recentCandidates: string[];
  /** Everyone the voter blocked or was blocked by: neither ever sees the other. */
  blocked: string[];
}

interface Row {
  id: string;
  schoolId: number | null;
  gender: Gender | null;
  preference: Gender | null;
  isVerified: boolean;
  member: boolean;
  shownGender: Gender;
  cooldownUntilMs: number | null;
  skipsInRow: number;
  roundOpenedAtMs: number | null;
  promptId: number | null;
  promptText: string | null;
  candidateAId: string | null;
  candidateBId: string | null;
  a: unknown;
  b: unknown;
  recentPrompts: unknown;
  recentCandidates: unknown;
  blocked: unknown;
}

/**
 * One round trip instead of six: the voter (by phone), their voter_state row
 * (allowance, open round, recent prompts and candidates), the open round's
 * prompt and those of its candidates who may still be shown, and the blocks
 * either way. Every part is an index lookup (users_phone, voter_state pkey,
 * prompts and users pkeys, blocks pkey and blocks_blocked_idx).
 */
const roundStateStatement = preparedStatement<{ phone: string }>(
  (p) => sql`
      select u.id, u.school_id as "schoolId", u.gender, u.preference, u.is_verified as "isVerified", ${memberSql("u")} as "member",
             ${PREFERRED_GENDER} as "shownGender",
             ${epochMs(sql`s.cooldown_until`)} as "cooldownUntilMs", coalesce(s.skips_in_row, 0) as "skipsInRow",
             case when s.round_open then ${epochMs(sql`s.round_opened_at`)} end as "roundOpenedAtMs",
             s.round_prompt_id as "promptId", p.text as "promptText",
             s.round_candidate_a_id as "candidateAId", s.round_candidate_b_id as "candidateBId",
             case when a.id is not null then ${publicProfileJson("a")} end as a,
             case when b.id is not null then ${publicProfileJson("b")} end as b,
             coalesce(to_json(s.recent_prompt_ids), '[]') as "recentPrompts",
             coalesce(to_json(s.recent_candidate_ids), '[]') as "recentCandidates",
             (select coalesce(json_agg(k.id), '[]')
                from (select blocked_id as id from blocks where blocker_id = u.id
                      union all select blocker_id from blocks where blocked_id = u.id) k) as blocked
      from users u
      left join voter_state s on s.user_id = u.id
      left join prompts p on s.round_open and p.id = s.round_prompt_id
      left join users a on s.round_open and a.id = s.round_candidate_a_id and ${shownSql("a")}
        and a.school_id = u.school_id and a.gender = ${PREFERRED_GENDER} and ${notBlockedEitherWay(sql`u.id`, sql`a.id`)}
      left join users b on s.round_open and b.id = s.round_candidate_b_id and ${shownSql("b")}
        and b.school_id = u.school_id and b.gender = ${PREFERRED_GENDER} and ${notBlockedEitherWay(sql`u.id`, sql`b.id`)}
      where u.phone = ${p.phone}`,
);

export async function readRoundState(db: Database, phone: string): Promise<RoundState | null> {
  const [row] = await roundStateStatement<Row>(db, { phone });
  if (!row) return null;
  const a = fromJson<PublicProfileRow | null>(row.a);
  const b = fromJson<PublicProfileRow | null>(row.b);
  return {
    voter: {
      id: row.id,
      schoolId: row.schoolId,
      gender: row.gender,
      preference: row.preference,
      isVerified: row.isVerified,
      member: row.member,
    },
    shownGender: row.shownGender,
    cooldownUntil: dateOfMs(row.cooldownUntilMs),
    skipsInRow: row.skipsInRow,
    open:
      row.roundOpenedAtMs === null
        ? null
        : {
            openedAt: new Date(row.roundOpenedAtMs),
            promptId: row.promptId!,
            promptText: row.promptText!,
            candidateIds: [row.candidateAId!, row.candidateBId!],
            pair: a && b && row.promptText !== null ? [toCandidate(a), toCandidate(b)] : null,
          },
    recentPrompts: fromJson<number[]>(row.recentPrompts),
    recentCandidates: fromJson<string[]>(row.recentCandidates),
    blocked: fromJson<string[]>(row.blocked),
  };
}

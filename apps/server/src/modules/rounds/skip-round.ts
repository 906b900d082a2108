import { SKIPS_IN_A_ROW } from "@quad/contracts";
import { isCheckViolation, preparedStatement, type Database } from "@quad/db";
import { sql } from "drizzle-orm";
import { ENDED_COLUMNS, recordEnded } from "./round-history";

export type SkipOutcome =
  { skipped: true; skipsInRow: number } | { skipped: false; reason: "no_open_round" | "out_of_skips" };

/**
 * Closes the open round the voter was shown as skipped and takes one skip, in
 * one statement: the skip is counted only for the round this statement
 * closed (the one it read: opened then, with those candidates), so skips sent at once for one round
 * take one skip. The round is closed only while skips are left; voter_state's
 * CHECK (skips_in_row ≤ 3) refuses the whole statement if a concurrent skip
 * got there first. The skipped round is recorded in rounds.
 */
const skipStatement = preparedStatement<{ voterId: string; openedAt: string; a: string; b: string; now: string }>(
  (p) => {
    const voter = sql`${p.voterId}::uuid`;
    const now = sql`${p.now}::timestamptz`;
    return sql`
    with closed as (
      update voter_state set round_open = false, skips_in_row = skips_in_row + 1, updated_at = ${now}
      where user_id = ${voter} and round_open and skips_in_row < ${SKIPS_IN_A_ROW}
        and round_opened_at = ${p.openedAt}::timestamptz and round_candidate_a_id = ${p.a}::uuid and round_candidate_b_id = ${p.b}::uuid
      returning skips_in_row, ${ENDED_COLUMNS}
    ), recorded as (${recordEnded("closed", "skipped", now)})
    select (select skips_in_row from closed) as "skipsInRow",
           coalesce((select skips_in_row from voter_state where user_id = ${voter}), 0) < ${SKIPS_IN_A_ROW} as "skipsLeft"`;
  },
);

export async function skipOpenRound(
  db: Database,
  round: { voterId: string; openedAt: Date; candidateIds: [string, string] },
  now: Date,
): Promise<SkipOutcome> {
  try {
    const [row] = await skipStatement<{ skipsInRow: number | null; skipsLeft: boolean }>(db, {
      voterId: round.voterId,
      openedAt: round.openedAt.toISOString(),
      a: round.candidateIds[0],
      b: round.candidateIds[1],
      now: now.toISOString(),
    });
    if (row?.skipsInRow != null) return { skipped: true, skipsInRow: row.skipsInRow };
    return { skipped: false, reason: row?.skipsLeft ? "no_open_round" : "out_of_skips" };
  } catch (error) {
    if (isCheckViolation(error, "voter_state_skips_in_row_range")) return { skipped: false, reason: "out_of_skips" };
    throw error;
  }
}

import { SKIPS_IN_A_ROW } from "@quad/contracts";
import { isCheckViolation, preparedStatement, type Database } from "@quad/db";
import { sql } from "drizzle-orm";

export type SkipOutcome = { skipped: true; skipsInRow: number } | { skipped: false; reason: "no_open_round" | "out_of_skips" };

/**
 * Closes the open round the voter was shown as skipped and takes one skip, in
 * one statement: the skip is counted only for the round this statement
 * closed, so skips sent at once for one round take one skip. The round is
 * closed only while skips are left; voter_state's CHECK (skips_in_row ≤ 3)
 * refuses the whole statement if a concurrent skip got there first.
 */
const skipStatement = preparedStatement<{ roundId: string; voterId: string; now: string }>((p) => {
  const voter = sql`${p.voterId}::uuid`;
  const now = sql`${p.now}::timestamptz`;
  return sql`
    with closed as (
      update rounds set status = 'skipped', closed_at = ${now}
      where id = ${p.roundId}::uuid and voter_id = ${voter} and status = 'open'
        and coalesce((select skips_in_row from voter_state where user_id = ${voter}), 0) < ${SKIPS_IN_A_ROW}
      returning voter_id
    ), taken as (
      insert into voter_state as s (user_id, skips_in_row, updated_at)
      select voter_id, 1, ${now} from closed
      on conflict (user_id) do update set skips_in_row = s.skips_in_row + 1, updated_at = excluded.updated_at
      returning s.skips_in_row
    )
    select (select skips_in_row from taken) as "skipsInRow",
           coalesce((select skips_in_row from voter_state where user_id = ${voter}), 0) < ${SKIPS_IN_A_ROW} as "skipsLeft"`;
});

export async function skipOpenRound(db: Database, round: { id: string; voterId: string }, now: Date): Promise<SkipOutcome> {
  try {
    const [row] = await skipStatement<{ skipsInRow: number | null; skipsLeft: boolean }>(db, {
      roundId: round.id,
      voterId: round.voterId,
      now: now.toISOString(),
    });
    if (row?.skipsInRow != null) return { skipped: true, skipsInRow: row.skipsInRow };
    return { skipped: false, reason: row?.skipsLeft ? "no_open_round" : "out_of_skips" };
  } catch (error) {
    if (isCheckViolation(error, "voter_state_skips_in_row_range")) return { skipped: false, reason: "out_of_skips" };
    throw error;
  }
}

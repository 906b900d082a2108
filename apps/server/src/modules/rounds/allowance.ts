import { SKIPS_IN_A_ROW, VOTE_COOLDOWN_MS, VOTES_PER_BATCH } from "@quad/contracts";
import type { Database, Transaction } from "@quad/db";
import { voterState, type VoterState } from "@quad/db/schema";
import { and, eq, isNotNull, lte, sql } from "drizzle-orm";

/**
 * Vote and skip allowances (DESIGN.md "Rounds and voting"): 12 votes, then
 * one hour of cooldown; 3 skips in a row, reset by a vote. Kept in
 * voter_state, whose CHECK constraints bound both counters.
 */

/** The voter's allowance row, created on first use; a finished cooldown starts a new batch. */
export async function readAllowance(db: Database, userId: string, now: Date, opts: { lock?: boolean } = {}): Promise<VoterState> {
  const select = () => {
    const query = db.select().from(voterState).where(eq(voterState.userId, userId));
    return opts.lock ? query.for("update") : query;
  };
  let [state] = await select();
  if (!state) {
    await db.insert(voterState).values({ userId }).onConflictDoNothing();
    [state] = await select();
  }
  if (state!.cooldownUntil && state!.cooldownUntil <= now) {
    const [reset] = await db
      .update(voterState)
      .set({ votesInBatch: 0, cooldownUntil: null, updatedAt: now })
      .where(and(eq(voterState.userId, userId), isNotNull(voterState.cooldownUntil), lte(voterState.cooldownUntil, now)))
      .returning();
    if (reset) state = reset;
    else [state] = await select();
  }
  return state!;
}

export const inCooldown = (state: VoterState, now: Date) => state.cooldownUntil !== null && state.cooldownUntil > now;
export const skipsLeft = (state: VoterState) => SKIPS_IN_A_ROW - state.skipsInRow;

/** Takes one skip if any is left; false when the voter is out of skips. */
export async function takeSkip(tx: Transaction, userId: string, now: Date): Promise<boolean> {
  const [row] = await tx
    .update(voterState)
    .set({ skipsInRow: sql`${voterState.skipsInRow} + 1`, updatedAt: now })
    .where(and(eq(voterState.userId, userId), sql`${voterState.skipsInRow} < ${SKIPS_IN_A_ROW}`))
    .returning({ skipsInRow: voterState.skipsInRow });
  return Boolean(row);
}

/** Counts a vote on a locked allowance row; answers when votes come back if this was the last. */
export async function countVote(tx: Transaction, state: VoterState, now: Date): Promise<{ disabled: boolean; availableAt?: Date }> {
  const used = state.votesInBatch + 1;
  const disabled = used >= VOTES_PER_BATCH;
  const availableAt = disabled ? new Date(now.getTime() + VOTE_COOLDOWN_MS) : undefined;
  await tx
    .update(voterState)
    .set({ votesInBatch: used, skipsInRow: 0, cooldownUntil: availableAt ?? null, updatedAt: now })
    .where(eq(voterState.userId, state.userId));
  return disabled ? { disabled, availableAt } : { disabled };
}

import type { SafetyTarget } from "@quad/contracts";
import type { Database } from "@quad/db";
import { rounds, unlocks, users, voterState, votes } from "@quad/db/schema";
import { and, eq, exists, lte, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { AppError } from "../../errors";

export const TARGET_MESSAGES = {
  notFound: "Student not found",
  self: "You can't do that to yourself.",
} as const;

/** The student a block or report is about, with their school (a report must come from the same one). */
export interface Target {
  id: string;
  schoolId: number | null;
}

/**
 * Whether `me` was shown the student in `student`: a candidate of their
 * current round (voter_state), of a round that ended without a vote
 * (rounds, any status), or of one they voted in (the vote's recipient or
 * the candidate shown beside them), or a voter they unlocked. Each probe is
 * an index lookup: voter_state's key, (candidate, voter) on rounds per
 * candidate column, (voter, recipient) on votes.
 */
export function wasShown(db: Database, me: string, student: AnyPgColumn): SQL {
  const inRounds = (candidate: AnyPgColumn) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(rounds)
        .where(and(eq(candidate, student), eq(rounds.voterId, me))),
    );
  const inCurrentRound = exists(
    db
      .select({ one: sql`1` })
      .from(voterState)
      .where(
        and(
          eq(voterState.userId, me),
          or(eq(voterState.roundCandidateAId, student), eq(voterState.roundCandidateBId, student)),
        ),
      ),
  );
  const votedIn = exists(
    db
      .select({ one: sql`1` })
      .from(votes)
      .where(and(eq(votes.voterId, me), or(eq(votes.recipientId, student), eq(votes.shownWithId, student)))),
  );
  const unlocked = exists(
    db
      .select({ one: sql`1` })
      .from(unlocks)
      .where(and(eq(unlocks.ownerId, me), eq(unlocks.voterId, student))),
  );
  return or(inCurrentRound, inRounds(rounds.candidateAId), inRounds(rounds.candidateBId), votedIn, unlocked)!;
}

/**
 * The one rule for whom a student may block or report: someone they were
 * shown, as a candidate in one of their rounds (open, voted or ended), or the voter
 * behind a vote they unlocked. Anyone else answers exactly like an id that
 * does not exist, so neither door tells whether an id is a student.
 * A vote card names its voter only when the caller unlocked them: a locked
 * card gives nothing away either, and a vote not yet delivered is no card.
 */
export async function resolveTarget(db: Database, me: string, target: SafetyTarget, now: Date): Promise<Target> {
  let row: Target | undefined;
  if ("userId" in target) {
    if (target.userId === me) throw new AppError("BAD_REQUEST", TARGET_MESSAGES.self);
    [row] = await db
      .select({ id: users.id, schoolId: users.schoolId })
      .from(users)
      .where(and(eq(users.id, target.userId), wasShown(db, me, users.id)));
  } else {
    [row] = await db
      .select({ id: users.id, schoolId: users.schoolId })
      .from(votes)
      .innerJoin(unlocks, and(eq(unlocks.ownerId, me), eq(unlocks.voterId, votes.voterId)))
      .innerJoin(users, eq(users.id, votes.voterId))
      .where(and(eq(votes.id, target.voteCardId), eq(votes.recipientId, me), lte(votes.deliveredAt, now)));
  }
  if (!row) throw new AppError("NOT_FOUND", TARGET_MESSAGES.notFound);
  if (row.id === me) throw new AppError("BAD_REQUEST", TARGET_MESSAGES.self);
  return row;
}

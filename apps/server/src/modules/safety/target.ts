import type { SafetyTarget } from "@quad/contracts";
import type { Database } from "@quad/db";
import { unlocks, users, votes } from "@quad/db/schema";
import { and, eq } from "drizzle-orm";
import { AppError } from "../../errors";

export const TARGET_MESSAGES = {
  notFound: "Student not found",
  self: "You can't do that to yourself.",
} as const;

/**
 * The student a block or report is about. A vote card names its voter only
 * when the caller unlocked them: a locked card gives nothing away, not even
 * through this door.
 */
export async function resolveTarget(db: Database, me: string, target: SafetyTarget): Promise<string> {
  let userId: string | undefined;
  if ("userId" in target) {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, target.userId));
    userId = row?.id;
  } else {
    const [row] = await db
      .select({ voterId: votes.voterId })
      .from(votes)
      .innerJoin(unlocks, and(eq(unlocks.ownerId, me), eq(unlocks.voterId, votes.voterId)))
      .where(and(eq(votes.id, target.voteCardId), eq(votes.recipientId, me)));
    userId = row?.voterId ?? undefined;
  }
  if (!userId) throw new AppError("NOT_FOUND", TARGET_MESSAGES.notFound);
  if (userId === me) throw new AppError("BAD_REQUEST", TARGET_MESSAGES.self);
  return userId;
}

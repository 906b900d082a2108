import type { UnlockResult } from "@quad/contracts";
import type { Database } from "@quad/db";
import { prompts, unlocks, users, votes } from "@quad/db/schema";
import { and, eq, gt, lte, sql } from "drizzle-orm";
import { AppError } from "../../errors";
import { requireMember } from "../schools/membership";
import { hourOf, unlockedCard } from "./cards";
import { userIdByPhone } from "./received";
import { product } from "../../metrics/registry";

export const UNLOCK_MESSAGES = {
  notFound: "Vote not found",
  noCredits: "You have no unlock credits left. Buy unlocks to see who voted for you.",
  voterGone: "This voter has deleted their account, so they can't be revealed.",
} as const;

/**
 * Reveals the voter behind one of the caller's vote cards, on every vote
 * they cast for the caller. The first reveal of a voter spends a credit; a
 * revealed voter costs nothing. The unlock row and the credit move in one
 * transaction, and the credit is taken by a conditional update, so parallel
 * unlocks can never spend more credits than there are.
 */
export async function unlockVoter(db: Database, phone: string, voteId: string, now: Date): Promise<UnlockResult> {
  const me = await userIdByPhone(db, phone);
  await requireMember(db, me);
  const result = await db.transaction(async (tx) => {
    const [vote] = await tx
      .select({ id: votes.id, voterId: votes.voterId, prompt: prompts.text, deliveredAt: votes.deliveredAt })
      .from(votes)
      .innerJoin(prompts, eq(prompts.id, votes.promptId))
      .where(and(eq(votes.id, voteId), eq(votes.recipientId, me), lte(votes.deliveredAt, now)));
    // Another student's card, a card not yet delivered and a card that does not exist look the same.
    if (!vote) throw new AppError("NOT_FOUND", UNLOCK_MESSAGES.notFound);
    if (!vote.voterId) {
      // Without credits this card answers as every other locked card does: otherwise a recipient
      // could ask again and again, for free, and learn the moment its voter deleted their account.
      const [row] = await tx.select({ remaining: users.remainingUnlocks }).from(users).where(eq(users.id, me));
      if (!row || row.remaining <= 0) throw new AppError("PAYMENT_REQUIRED", UNLOCK_MESSAGES.noCredits);
      throw new AppError("CONFLICT", UNLOCK_MESSAGES.voterGone);
    }

    const [created] = await tx
      .insert(unlocks)
      .values({ ownerId: me, voterId: vote.voterId, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: unlocks.id });
    let remaining: number;
    if (created) {
      const [spent] = await tx
        .update(users)
        .set({ remainingUnlocks: sql`${users.remainingUnlocks} - 1` })
        .where(and(eq(users.id, me), gt(users.remainingUnlocks, 0)))
        .returning({ remaining: users.remainingUnlocks });
      if (!spent) throw new AppError("PAYMENT_REQUIRED", UNLOCK_MESSAGES.noCredits);
      remaining = spent.remaining;
    } else {
      const [row] = await tx.select({ remaining: users.remainingUnlocks }).from(users).where(eq(users.id, me));
      remaining = row!.remaining;
    }
    const [voter] = await tx
      .select({
        firstName: users.firstName,
        graduationYear: users.graduationYear,
        instagramHandle: users.instagramHandle,
        emojis: users.emojis,
        photoKey: users.photoKey,
      })
      .from(users)
      .where(eq(users.id, vote.voterId));
    const base = { id: vote.id, prompt: vote.prompt, createdAt: hourOf(vote.deliveredAt.toISOString()) };
    return { unlockedUser: unlockedCard(base, voter!), remainingUnlocks: remaining };
  });
  product.unlocks.inc();
  return result;
}

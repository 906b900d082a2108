import { ERROR_MESSAGES, REPORTS_TO_HOLD, type ReportReason, type SafetyTarget } from "@quad/contracts";
import { isUniqueViolation, type Database } from "@quad/db";
import { blocks, reports, rounds, users } from "@quad/db/schema";
import { and, countDistinct, desc, eq, isNull, or } from "drizzle-orm";
import { AppError } from "../../errors";
import { mediaUrl } from "../../media/storage";
import { resolveTarget } from "./target";

/**
 * Blocks a student both ways: neither is drawn for the other again (the
 * pairing engine reads blocks either way) and votes between them are
 * refused. Open rounds showing one to the other are closed now.
 */
export async function blockStudent(db: Database, me: string, target: SafetyTarget, now: Date): Promise<void> {
  const other = await resolveTarget(db, me, target);
  await db.transaction(async (tx) => {
    await tx.insert(blocks).values({ blockerId: me, blockedId: other, createdAt: now }).onConflictDoNothing();
    const shows = (voter: string, candidate: string) =>
      and(eq(rounds.voterId, voter), eq(rounds.status, "open"), or(eq(rounds.candidateAId, candidate), eq(rounds.candidateBId, candidate)));
    await tx.update(rounds).set({ status: "closed", closedAt: now }).where(or(shows(me, other), shows(other, me)));
  });
}

export async function unblockStudent(db: Database, me: string, userId: string): Promise<void> {
  await db.delete(blocks).where(and(eq(blocks.blockerId, me), eq(blocks.blockedId, userId)));
}

export async function listBlocked(db: Database, me: string) {
  const rows = await db
    .select({ userId: blocks.blockedId, firstName: users.firstName, photoKey: users.photoKey, blockedAt: blocks.createdAt })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .where(eq(blocks.blockerId, me))
    .orderBy(desc(blocks.createdAt));
  return {
    blocked: rows.map((row) => ({
      userId: row.userId,
      firstName: row.firstName ?? "",
      photo: row.photoKey ? mediaUrl(row.photoKey) : null,
      blockedAt: row.blockedAt.toISOString(),
    })),
  };
}

/**
 * Files a report. One per reporter and student (a database constraint);
 * when REPORTS_TO_HOLD distinct students have open reports about someone,
 * their profile is paused until a moderator reviews it.
 * Answers whether this report put the profile on hold.
 */
export async function reportStudent(
  db: Database,
  me: string,
  input: { target: SafetyTarget; reason: ReportReason; note?: string },
  now: Date,
): Promise<{ held: boolean }> {
  const other = await resolveTarget(db, me, input.target);
  return db.transaction(async (tx) => {
    try {
      await tx.insert(reports).values({ reporterId: me, reportedId: other, reason: input.reason, note: input.note ?? null, createdAt: now });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError("CONFLICT", ERROR_MESSAGES.alreadyReported);
      throw error;
    }
    const [open] = await tx
      .select({ reporters: countDistinct(reports.reporterId) })
      .from(reports)
      .where(and(eq(reports.reportedId, other), isNull(reports.resolvedAt)));
    if ((open?.reporters ?? 0) < REPORTS_TO_HOLD) return { held: false };
    const [held] = await tx
      .update(users)
      .set({ pausedAt: now, heldForReviewAt: now })
      .where(and(eq(users.id, other), isNull(users.heldForReviewAt)))
      .returning({ id: users.id });
    return { held: Boolean(held) };
  });
}

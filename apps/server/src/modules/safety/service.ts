import {
  ERROR_MESSAGES,
  REPORT_WINDOW_MS,
  REPORTS_PER_DAY,
  REPORTS_TO_HOLD,
  reportWeight,
  type ReportReason,
  type SafetyTarget,
} from "@quad/contracts";
import { isForeignKeyViolation, isUniqueViolation, type Database } from "@quad/db";
import { blocks, reports, unlocks, users } from "@quad/db/schema";
import { and, count, desc, eq, exists, gt, inArray, isNull, min, or, sql } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import { AppError } from "../../errors";
import type { CandidatePool } from "../rounds/candidate-pool";
import { eligibilityChanged } from "../rounds/eligibility";
import { mediaUrl } from "../../media/storage";
import { closeRoundsShowing } from "../rounds/round-history";
import { memberSql, requireMember } from "../schools/membership";
import { resolveTarget, TARGET_MESSAGES, wasShown } from "./target";

/**
 * Since when a reporter counts as a member of their school: the account's
 * creation, or their move to the school if they moved since. An old account
 * that moves to a school weighs there as a new one, so aged accounts cannot
 * be pointed at any school to hold its students (decision 0010).
 */
export const reporterSince = (u: { schoolSince: AnyPgColumn; createdAt: AnyPgColumn }) =>
  sql`coalesce(${u.schoolSince}, ${u.createdAt})`.mapWith(
    (value: unknown) => u.createdAt.mapFromDriverValue(value) as Date,
  );

/**
 * Blocks a student both ways: neither is drawn for the other again (the
 * pairing engine reads blocks either way) and votes between them are
 * refused. Open rounds showing one to the other are closed now.
 */
export async function blockStudent(db: Database, me: string, target: SafetyTarget, now: Date): Promise<void> {
  await requireMember(db, me);
  const { id: other } = await resolveTarget(db, me, target, now);
  await db.transaction(async (tx) => {
    try {
      await tx.insert(blocks).values({ blockerId: me, blockedId: other, createdAt: now }).onConflictDoNothing();
    } catch (error) {
      // Deleted since it was read: the same 404 as any student who is gone, not a 500.
      if (isForeignKeyViolation(error)) throw new AppError("NOT_FOUND", TARGET_MESSAGES.notFound);
      throw error;
    }
    await closeRoundsShowing(
      tx,
      [
        { voterId: me, candidateId: other },
        { voterId: other, candidateId: me },
      ],
      now,
    );
  });
}

export async function unblockStudent(db: Database, me: string, userId: string): Promise<void> {
  await db.delete(blocks).where(and(eq(blocks.blockerId, me), eq(blocks.blockedId, userId)));
}

/** The students the caller blocked, with the name and photo they were shown. */
export async function listBlocked(db: Database, me: string) {
  const blocker = alias(users, "blocker");
  // The photo is public only to proved members of the same school (or unlockable, to whom the student voted
  // for): a blocked student who moved school, or changed their photo there, is not followed by the list.
  const photoVisible = or(
    and(eq(users.schoolId, blocker.schoolId), sql`${memberSql("blocker")}`),
    exists(
      db
        .select({ one: sql`1` })
        .from(unlocks)
        .where(and(eq(unlocks.ownerId, me), eq(unlocks.voterId, blocks.blockedId))),
    ),
  );
  const rows = await db
    .select({
      userId: blocks.blockedId,
      firstName: users.firstName,
      photoKey: sql<string | null>`case when ${photoVisible} then ${users.photoKey} end`,
      blockedAt: blocks.createdAt,
    })
    .from(blocks)
    .innerJoin(users, eq(users.id, blocks.blockedId))
    .innerJoin(blocker, eq(blocker.id, blocks.blockerId))
    // Only students the caller was shown: the same rule as blocking, so no row (one written
    // before the rule, or by a future path that forgets it) names anyone else.
    .where(and(eq(blocks.blockerId, me), wasShown(db, me, blocks.blockedId)))
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
 * Who may report: a verified student (a complete profile with a photo) whose
 * own profile is not held for review, a proved member of the school. Decided before the target is looked
 * at, so the answer says nothing about the id asked about.
 */
async function requireReporter(db: Database, me: string): Promise<{ schoolId: number | null }> {
  const [row] = await db
    .select({ verified: users.isVerified, heldAt: users.heldForReviewAt, schoolId: users.schoolId })
    .from(users)
    .where(eq(users.id, me));
  if (!row?.verified) throw new AppError("FORBIDDEN", ERROR_MESSAGES.reportNeedsVerifiedProfile);
  if (row.heldAt) throw new AppError("FORBIDDEN", ERROR_MESSAGES.reportWhileHeld);
  await requireMember(db, me);
  return row;
}

/**
 * Files a report about a student the caller was shown at their own school,
 * and closes the caller's open round if it shows them.
 * One per reporter and student (a database constraint), REPORTS_PER_DAY per
 * reporter in any 24 hours. When the open reports about someone weigh
 * REPORTS_TO_HOLD (reportWeight: newer accounts count less or nothing),
 * their profile is paused until a moderator reviews it.
 * Answers whether this report put the profile on hold.
 */
export async function reportStudent(
  db: Database,
  pool: CandidatePool,
  me: string,
  input: { target: SafetyTarget; reason: ReportReason; note?: string },
  now: Date,
): Promise<{ held: boolean }> {
  const result = await fileReport(db, me, input, now);
  // A hold pauses the profile.
  if (result.held) eligibilityChanged(pool);
  return result;
}

async function fileReport(
  db: Database,
  me: string,
  input: { target: SafetyTarget; reason: ReportReason; note?: string },
  now: Date,
): Promise<{ held: boolean }> {
  const reporter = await requireReporter(db, me);
  const target = await resolveTarget(db, me, input.target, now);
  if (target.schoolId === null || target.schoolId !== reporter.schoolId)
    throw new AppError("FORBIDDEN", ERROR_MESSAGES.reportOtherSchool);
  const other = target.id;
  return db.transaction(async (tx) => {
    // Both rows locked, in id order (two students reporting each other cannot deadlock): a reporter's
    // reports are counted one at a time, and so are the reports about a student, so concurrent
    // reports can neither pass the daily limit together nor each miss the others and never hold.
    const locked = await tx
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, [me, other]))
      .orderBy(users.id)
      .for("no key update");
    // The target deleted their account since it was read: its reports were kept or went, and this one
    // finds no profile (decision 0010), answered as any student who is gone rather than a failed insert.
    if (!locked.some((row) => row.id === other)) throw new AppError("NOT_FOUND", TARGET_MESSAGES.notFound);
    if (!locked.some((row) => row.id === me)) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
    const [sent] = await tx
      .select({ count: count(), oldest: min(reports.createdAt) })
      .from(reports)
      .where(and(eq(reports.reporterId, me), gt(reports.createdAt, new Date(now.getTime() - REPORT_WINDOW_MS))));
    if (sent && sent.count >= REPORTS_PER_DAY) {
      // The next report is possible once the oldest of the window leaves it.
      const retryAfterMs = (sent.oldest?.getTime() ?? now.getTime()) + REPORT_WINDOW_MS - now.getTime();
      throw new AppError("TOO_MANY_REQUESTS", ERROR_MESSAGES.tooManyReports, {
        retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
      });
    }
    try {
      await tx
        .insert(reports)
        .values({ reporterId: me, reportedId: other, reason: input.reason, note: input.note ?? null, createdAt: now });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError("CONFLICT", ERROR_MESSAGES.alreadyReported);
      throw error;
    }
    // The reporter moves on: their round showing the reported student closes, as after a block.
    await closeRoundsShowing(tx, [{ voterId: me, candidateId: other }], now);
    const open = await tx
      .select({ reportedAt: reports.createdAt, reporterSince: reporterSince(users) })
      .from(reports)
      .innerJoin(users, eq(users.id, reports.reporterId))
      .where(and(eq(reports.reportedId, other), isNull(reports.resolvedAt)));
    const weight = open.reduce((sum, row) => sum + reportWeight(row.reporterSince, row.reportedAt), 0);
    if (weight < REPORTS_TO_HOLD) return { held: false };
    const [held] = await tx
      .update(users)
      // An owner's own earlier pause is kept (its time says it was theirs): a restore lifts only the hold's.
      .set({ pausedAt: sql`coalesce(${users.pausedAt}, ${now.toISOString()}::timestamptz)`, heldForReviewAt: now })
      .where(and(eq(users.id, other), isNull(users.heldForReviewAt)))
      .returning({ id: users.id });
    return { held: Boolean(held) };
  });
}

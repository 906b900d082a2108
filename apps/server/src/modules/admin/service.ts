import {
  REPORT_REASON_LABELS,
  reportWeight,
  URGENT_REPORT_REASONS,
  type ReportReason,
  type ReviewQueue,
} from "@quad/contracts";
import type { Database } from "@quad/db";
import { adminAuditLog, reports, schools, users } from "@quad/db/schema";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { AppError } from "../../errors";
import { mediaUrl, type MediaStorage } from "../../media/storage";
import { deleteAccount } from "../account/delete";
import type { CandidatePool } from "../rounds/candidate-pool";
import { eligibilityChanged } from "../rounds/eligibility";
import { reporterSince } from "../safety/service";
import type { SessionRevocations } from "../auth/revocations";

export const ADMIN_MESSAGES = { notFound: "Not found", noSuchStudent: "Student not found" } as const;

/** Admins only; everyone else gets the same 404 as a route that does not exist. */
export async function requireAdmin(db: Database, phone: string): Promise<string> {
  const [user] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.phone, phone));
  if (user?.role !== "admin") throw new AppError("NOT_FOUND", ADMIN_MESSAGES.notFound);
  return user.id;
}

type QueuedStudent = ReviewQueue["students"][number];

/**
 * Open reports, one entry per reported student: those with an urgent report
 * (Under 18) first, longest waiting first, then the most reported. Each
 * report says who filed it, when, and what it weighs toward a hold.
 */
export async function reviewQueue(db: Database): Promise<ReviewQueue> {
  const reporter = alias(users, "reporter");
  const rows = await db
    .select({
      userId: reports.reportedId,
      reason: reports.reason,
      note: reports.note,
      createdAt: reports.createdAt,
      firstName: users.firstName,
      photoKey: users.photoKey,
      school: schools.name,
      heldAt: users.heldForReviewAt,
      reporterId: reports.reporterId,
      reporterName: reporter.firstName,
      reporterSince: reporterSince(reporter),
    })
    .from(reports)
    .innerJoin(users, eq(users.id, reports.reportedId))
    .leftJoin(reporter, eq(reporter.id, reports.reporterId))
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(isNull(reports.resolvedAt))
    .orderBy(desc(reports.createdAt));
  const byUser = new Map<string, QueuedStudent>();
  for (const row of rows) {
    const entry = byUser.get(row.userId) ?? {
      userId: row.userId,
      firstName: row.firstName ?? "",
      photo: row.photoKey ? mediaUrl(row.photoKey) : null,
      school: row.school,
      held: row.heldAt !== null,
      urgentSince: null,
      reports: [],
      weight: 0,
    };
    // A report whose reporter deleted their account weighs nothing: there is no account to age.
    const weight = row.reporterId && row.reporterSince ? reportWeight(row.reporterSince, row.createdAt) : 0;
    const urgent = URGENT_REPORT_REASONS.includes(row.reason as ReportReason);
    // Rows come newest first: the last urgent one seen is the oldest.
    if (urgent) entry.urgentSince = row.createdAt.toISOString();
    entry.reports.push({
      reason: REPORT_REASON_LABELS[row.reason as ReportReason],
      urgent,
      note: row.note,
      at: row.createdAt.toISOString(),
      reporter: row.reporterId ? { userId: row.reporterId, firstName: row.reporterName ?? "" } : null,
      weight,
    });
    entry.weight += weight;
    byUser.set(row.userId, entry);
  }
  return { students: [...byUser.values()].sort(queueOrder) };
}

/** Urgent first, the one waiting longest at the top; then the most reported. */
function queueOrder(a: QueuedStudent, b: QueuedStudent): number {
  if (a.urgentSince !== b.urgentSince) {
    if (a.urgentSince === null) return 1;
    if (b.urgentSince === null) return -1;
    return a.urgentSince < b.urgentSince ? -1 : 1;
  }
  return b.reports.length - a.reports.length;
}

async function audit(
  db: Database,
  adminId: string,
  action: "restore" | "remove_profile" | "remove_photo",
  targetUserId: string,
  now: Date,
  details: Record<string, unknown> = {},
) {
  await db.insert(adminAuditLog).values({ adminId, action, targetUserId, details, createdAt: now });
}

/** Clears the reports and the hold: the profile is shown again (unless its owner paused it). */
export async function restoreProfile(db: Database, pool: CandidatePool, adminId: string, userId: string, now: Date) {
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ held: users.heldForReviewAt }).from(users).where(eq(users.id, userId));
    if (!user) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.noSuchStudent);
    await tx
      .update(reports)
      .set({ resolvedAt: now })
      .where(and(eq(reports.reportedId, userId), isNull(reports.resolvedAt)));
    // The hold paused the profile at the moment it held it; a pause its owner set before or during the hold
    // has another time and stays (a held profile can be paused by its owner, not resumed).
    if (user.held) {
      await tx
        .update(users)
        .set({
          heldForReviewAt: null,
          pausedAt: sql`case when ${users.pausedAt} = ${users.heldForReviewAt} then null else ${users.pausedAt} end`,
        })
        .where(eq(users.id, userId));
    }
    await audit(tx, adminId, "restore", userId, now);
  });
  eligibilityChanged(pool);
}

/** Removes the profile as if its owner had deleted the account: its sessions end at once. */
export async function removeProfile(
  db: Database,
  pool: CandidatePool,
  media: MediaStorage,
  revocations: Pick<SessionRevocations, "heard">,
  adminId: string,
  userId: string,
  now: Date,
) {
  const [user] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.noSuchStudent);
  await audit(db, adminId, "remove_profile", userId, now);
  await deleteAccount(db, media, revocations, user.phone, now, pool);
}

/** Takes the photo down; without a photo the profile is unverified until its owner uploads a new one. */
export async function removePhoto(
  db: Database,
  pool: CandidatePool,
  media: MediaStorage,
  adminId: string,
  userId: string,
  now: Date,
) {
  const [user] = await db.select({ photoKey: users.photoKey }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError("NOT_FOUND", ADMIN_MESSAGES.noSuchStudent);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ photoKey: null, isVerified: false, updatedAt: now }).where(eq(users.id, userId));
    await tx
      .update(reports)
      .set({ resolvedAt: now })
      .where(
        and(
          eq(reports.reportedId, userId),
          isNull(reports.resolvedAt),
          inArray(reports.reason, ["inappropriate_photo"]),
        ),
      );
    await audit(tx, adminId, "remove_photo", userId, now);
  });
  if (user.photoKey && !user.photoKey.startsWith("demo/")) await media.delete(user.photoKey);
  eligibilityChanged(pool);
}

export async function auditTrail(db: Database, limit = 100) {
  const rows = await db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.createdAt)).limit(limit);
  return {
    entries: rows.map((row) => ({
      action: row.action,
      adminId: row.adminId,
      targetUserId: row.targetUserId,
      at: row.createdAt.toISOString(),
    })),
  };
}

/** Makes a phone's account an admin (the `pnpm admin:grant` command). */
export async function grantAdmin(db: Database, phone: string): Promise<boolean> {
  const [row] = await db.update(users).set({ role: "admin" }).where(eq(users.phone, phone)).returning({ id: users.id });
  return Boolean(row);
}

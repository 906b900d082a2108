import { createHmac } from "node:crypto";
import { URGENT_REPORT_REASONS } from "@quad/contracts";
import type { Transaction } from "@quad/db";
import { keptUrgentReports, reports } from "@quad/db/schema";
import { and, eq, inArray, isNull } from "drizzle-orm";

/**
 * Open "Under 18" reports outlive their student's own deletion (decision
 * 0010). Refusing the deletion, or holding the student when they come
 * back, would tell them they were reported (and so who might have); so the
 * deletion goes through as anyone's, the reports are kept under a keyed
 * digest of the phone, and a new account with that phone takes them back
 * quietly: the moderators see them again, urgent, from when they were filed.
 */

/** Keyed with the server secret: the stored value cannot be turned back into a phone by trying every number. */
export const reportedPhoneDigest = (secret: string, phone: string) =>
  createHmac("sha256", secret).update(`reported-phone:${phone}`).digest("hex");

/** Inside the deletion, before the profile (and with it the reports about it) goes. */
export async function keepUrgentReports(tx: Transaction, userId: string, phoneDigest: string, now: Date) {
  const open = await tx
    .select({ reporterId: reports.reporterId, reason: reports.reason, note: reports.note, at: reports.createdAt })
    .from(reports)
    .where(
      and(
        eq(reports.reportedId, userId),
        isNull(reports.resolvedAt),
        inArray(reports.reason, [...URGENT_REPORT_REASONS]),
      ),
    );
  if (open.length === 0) return;
  await tx
    .insert(keptUrgentReports)
    .values(open.map((report) => ({ ...report, reportedAt: report.at, phoneDigest, keptAt: now })));
}

/** Inside the new profile's creation: the kept reports become reports about it again. */
export async function takeBackKeptReports(tx: Transaction, userId: string, phoneDigest: string) {
  const kept = await tx.delete(keptUrgentReports).where(eq(keptUrgentReports.phoneDigest, phoneDigest)).returning();
  if (kept.length === 0) return;
  await tx
    .insert(reports)
    .values(
      kept.map((row) => ({
        reporterId: row.reporterId,
        reportedId: userId,
        reason: row.reason,
        note: row.note,
        createdAt: row.reportedAt,
      })),
    )
    // One report per reporter and student, as always.
    .onConflictDoNothing();
}

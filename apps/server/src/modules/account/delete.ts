import { ERROR_MESSAGES } from "@quad/contracts";
import type { Database } from "@quad/db";
import { authCodes, authSessions, consents, emailOutbox, schoolEmailCodes, smsOutbox, users } from "@quad/db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "../../errors";
import type { MediaStorage } from "../../media/storage";
import { recordRevocations, type SessionRevocations } from "../auth/revocations";
import type { CandidatePool } from "../rounds/candidate-pool";
import { eligibilityChanged } from "../rounds/eligibility";
import { keepUrgentReports, reportedPhoneDigest } from "../safety/kept-reports";

/**
 * Deletes an account at once. The profile row goes, and with it (by foreign
 * keys) received votes, rounds, unlocks, allowances, blocks, reports about
 * the student, the school address with its codes and the e-mails sent to it
 * (those others asked for it too).
 * Votes the student cast stay counted for their recipients with the voter
 * set to null, so they can never be revealed; reports the student filed stay
 * for the moderators with the reporter set to null (an Under 18 report must
 * not vanish unreviewed), and so do open Under 18 reports about a student who
 * deletes their own account, under a keyed digest of the phone
 * (safety/kept-reports.ts); purchases stay for the books without the profile. Sessions, codes, consent records and texts to the
 * phone are removed too, so the number can sign up again afresh; every
 * session family of the phone is revoked, so its access tokens stop working
 * at once in every process (a later sign-in starts a new family).
 *
 * Sessions go first: a profile update that would create the profile again
 * holds its session row (users/profile.ts), so the two serialize — either
 * the update finds no session and creates nothing, or its row exists before
 * this transaction deletes profiles.
 */
export async function deleteAccount(
  db: Database,
  media: MediaStorage,
  revocations: Pick<SessionRevocations, "heard">,
  phone: string,
  now: Date,
  pool: CandidatePool,
  /**
   * The student deleting their own account, not a moderator removing it (whose removal is the
   * review), with the server secret that keys what is kept: refused while the profile is held for
   * review, or deleting and signing up again would lift the hold unseen; its open urgent reports are kept.
   */
  owner?: { secret: string },
): Promise<void> {
  const { photoKey, families } = await db.transaction(async (tx) => {
    const sessions = await tx
      .delete(authSessions)
      .where(eq(authSessions.phone, phone))
      .returning({ familyId: authSessions.familyId });
    if (owner) {
      // Locked as a report locks it, so a report filed meanwhile is either kept here or refused after.
      const [profile] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.phone, phone), isNull(users.heldForReviewAt)))
        .for("update");
      if (profile) await keepUrgentReports(tx, profile.id, reportedPhoneDigest(owner.secret, phone), now);
    }
    const [user] = await tx
      .delete(users)
      .where(owner ? and(eq(users.phone, phone), isNull(users.heldForReviewAt)) : eq(users.phone, phone))
      .returning({ photoKey: users.photoKey, schoolEmail: users.schoolEmail });
    if (!user) {
      const [held] = await tx.select({ id: users.id }).from(users).where(eq(users.phone, phone));
      throw held
        ? new AppError("CONFLICT", ERROR_MESSAGES.deleteWhileHeld)
        : new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
    }
    // The proved address goes everywhere it is, also from codes and e-mails other students asked for it.
    if (user.schoolEmail) {
      await tx.delete(schoolEmailCodes).where(eq(schoolEmailCodes.address, user.schoolEmail));
      await tx.delete(emailOutbox).where(eq(emailOutbox.toAddress, user.schoolEmail));
    }
    const families = [...new Set(sessions.map((s) => s.familyId))];
    await recordRevocations(tx, families, now);
    await tx.delete(consents).where(eq(consents.phone, phone));
    await tx.delete(authCodes).where(eq(authCodes.phone, phone));
    await tx.delete(smsOutbox).where(eq(smsOutbox.toPhone, phone));
    return { photoKey: user.photoKey, families };
  });
  revocations.heard(families);
  // Demo avatars are shared between demo students; a student's own photo is not.
  if (photoKey && !photoKey.startsWith("demo/")) await media.delete(photoKey);
  eligibilityChanged(pool);
}

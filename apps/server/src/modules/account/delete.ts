import { ERROR_MESSAGES } from "@quad/contracts";
import type { Database } from "@quad/db";
import { authCodes, authSessions, consents, smsOutbox, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { AppError } from "../../errors";
import type { MediaStorage } from "../../media/storage";

/**
 * Deletes an account at once. The profile row goes, and with it (by foreign
 * keys) received votes, rounds, unlocks, allowances, blocks and reports.
 * Votes the student cast stay counted for their recipients with the voter
 * set to null, so they can never be revealed; purchases stay for the books
 * without the profile. Sessions, codes, consent records and texts to the
 * phone are removed too, so the number can sign up again afresh.
 */
export async function deleteAccount(db: Database, media: MediaStorage, phone: string): Promise<void> {
  const photoKey = await db.transaction(async (tx) => {
    const [user] = await tx.delete(users).where(eq(users.phone, phone)).returning({ photoKey: users.photoKey });
    if (!user) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
    await tx.delete(consents).where(eq(consents.phone, phone));
    await tx.delete(authSessions).where(eq(authSessions.phone, phone));
    await tx.delete(authCodes).where(eq(authCodes.phone, phone));
    await tx.delete(smsOutbox).where(eq(smsOutbox.toPhone, phone));
    return user.photoKey;
  });
  // Demo avatars are shared between demo students; a student's own photo is not.
  if (photoKey && !photoKey.startsWith("demo/")) await media.delete(photoKey);
}

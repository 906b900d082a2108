import { randomUUID } from "node:crypto";
import { ERROR_MESSAGES, VALIDATION, type MeUser, type ProfileUpdate } from "@quad/contracts";
import type { Database } from "@quad/db";
import { schools, users, type User } from "@quad/db/schema";
import { and, eq, isNotNull } from "drizzle-orm";
import { AppError } from "../../errors";
import { mediaUrl, type MediaStorage } from "../../media/storage";
import type { ProcessedPhoto } from "./photo";

export interface ProfileDeps {
  db: Database;
  media: MediaStorage;
  now: () => Date;
}

type SchoolBrand = { name: string; icon: string | null } | null;

/** The owner's view of a profile (contracts MeUser), given the school's name and logo. */
function meOf(user: User, school: SchoolBrand): MeUser {
  return {
    id: user.id,
    phone: user.phone,
    firstName: user.firstName,
    university: user.schoolId,
    graduationYear: user.graduationYear,
    instagramHandle: user.instagramHandle,
    gender: user.gender,
    preference: user.preference,
    profileImage: user.photoKey ? mediaUrl(user.photoKey) : null,
    isVerified: user.isVerified,
    remainingUnlocks: user.remainingUnlocks,
    schoolLogo: school?.icon ?? null,
    schoolName: school?.name ?? null,
    boostEndTime: user.boostEndsAt ? user.boostEndsAt.toISOString() : null,
    organizations: user.organizations,
    interests: user.interests,
    emojis: user.emojis,
    paused: user.pausedAt !== null,
    heldForReview: user.heldForReviewAt !== null,
    showInPreview: user.showInPreview,
  };
}

/** The owner's view of a profile row just written. */
export async function toMe(db: Database, user: User): Promise<MeUser> {
  const [school] = user.schoolId
    ? await db.select({ name: schools.name, icon: schools.icon }).from(schools).where(eq(schools.id, user.schoolId))
    : [];
  return meOf(user, school ?? null);
}

/** GET /users/me: the profile and its school in one statement. */
export async function getMe(db: Database, phone: string): Promise<MeUser> {
  const [row] = await db
    .select({ user: users, schoolName: schools.name, schoolIcon: schools.icon })
    .from(users)
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(eq(users.phone, phone));
  if (!row) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  return meOf(row.user, row.schoolName === null ? null : { name: row.schoolName, icon: row.schoolIcon });
}

/**
 * Creates the profile on the first call and changes what later calls name.
 * Only fields of the update schema are written: verification, credits,
 * boosts and the phone are the server's. A profile becomes verified when it
 * is complete with a processed photo — the database's check constraint
 * refuses a verified row that is not.
 */
export async function updateProfile(
  deps: ProfileDeps,
  phone: string,
  input: ProfileUpdate,
  photo?: ProcessedPhoto,
): Promise<MeUser> {
  if (input.university !== undefined) {
    const [school] = await deps.db.select({ id: schools.id }).from(schools).where(eq(schools.id, input.university));
    if (!school) {
      throw new AppError("BAD_REQUEST", VALIDATION.university, { fieldErrors: { university: [VALIDATION.university] } });
    }
  }
  const stored = photo ? await storePhoto(deps.media, photo) : undefined;

  const changes: Partial<typeof users.$inferInsert> = {
    ...(input.firstName !== undefined && { firstName: input.firstName }),
    ...(input.university !== undefined && { schoolId: input.university }),
    ...(input.graduationYear !== undefined && { graduationYear: input.graduationYear }),
    ...(input.instagramHandle !== undefined && { instagramHandle: input.instagramHandle }),
    ...(input.gender !== undefined && { gender: input.gender }),
    ...(input.preference !== undefined && { preference: input.preference }),
    ...(input.organizations !== undefined && { organizations: input.organizations }),
    ...(input.interests !== undefined && { interests: input.interests }),
    ...(input.emojis !== undefined && { emojis: input.emojis }),
    ...(stored && { photoKey: stored.photoKey, teaserKey: stored.teaserKey }),
  };

  const [previous] = await deps.db
    .select({ photoKey: users.photoKey, teaserKey: users.teaserKey })
    .from(users)
    .where(eq(users.phone, phone));
  const now = deps.now();
  const [saved] = await deps.db
    .insert(users)
    .values({ phone, ...changes, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: users.phone, set: { ...changes, updatedAt: now } })
    .returning();
  let user = saved!;

  if (!user.isVerified) {
    const [verified] = await deps.db
      .update(users)
      .set({ isVerified: true, updatedAt: now })
      .where(and(eq(users.id, user.id), ...completeProfile))
      .returning();
    if (verified) user = verified;
  }

  if (stored && previous?.photoKey && previous.photoKey !== stored.photoKey) {
    await Promise.all([deps.media.delete(previous.photoKey), previous.teaserKey ? deps.media.delete(previous.teaserKey) : null]);
  }
  return toMe(deps.db, user);
}

/** Every field the spec requires, plus a processed photo. */
const completeProfile = [
  isNotNull(users.firstName),
  isNotNull(users.schoolId),
  isNotNull(users.graduationYear),
  isNotNull(users.gender),
  isNotNull(users.instagramHandle),
  isNotNull(users.photoKey),
];

async function storePhoto(media: MediaStorage, photo: ProcessedPhoto) {
  // Random names: a photo's URL says nothing about whose it is.
  const id = randomUUID();
  const photoKey = `photos/${id}.jpg`;
  const teaserKey = `teasers/${randomUUID()}.jpg`;
  await media.put(photoKey, photo.photo, "image/jpeg");
  await media.put(teaserKey, photo.teaser, "image/jpeg");
  return { photoKey, teaserKey };
}

import { randomUUID } from "node:crypto";
import { ERROR_MESSAGES, isClassYearOffered, VALIDATION, type MeUser, type ProfileUpdate } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { authSessions, schools, sessionRevocations, users, type User } from "@quad/db/schema";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { AppError } from "../../errors";
import { mediaUrl, type MediaStorage } from "../../media/storage";
import type { CandidatePool } from "../rounds/candidate-pool";
import { eligibilityChanged } from "../rounds/eligibility";
import { reportedPhoneDigest, takeBackKeptReports } from "../safety/kept-reports";
import type { ProcessedPhoto } from "./photo";

export interface ProfileDeps {
  db: Database;
  media: MediaStorage;
  now: () => Date;
  candidatePool: CandidatePool;
  /** Keys the phone's digest under which reports outlive a deleted account (safety/kept-reports.ts). */
  jwtSecret: string;
}

/** The owner's view of a profile row just written (read back with its school). */
export function toMe(db: Database, user: User): Promise<MeUser> {
  return getMe(db, user.phone);
}

/** The columns GET /users/me reads, as Postgres names them. */
interface MeRow {
  id: string;
  phone: string;
  first_name: string | null;
  school_id: number | null;
  graduation_year: number | null;
  instagram_handle: string | null;
  gender: User["gender"];
  preference: User["preference"];
  photo_key: string | null;
  is_verified: boolean;
  remaining_unlocks: number;
  boost_ends_at: Date | string | null;
  organizations: string[];
  interests: string[];
  emojis: string[];
  paused: boolean;
  held_for_review: boolean;
  show_in_preview: boolean;
  school_email: string | null;
  member: boolean;
  school_name: string | null;
  school_icon: string | null;
}

/**
 * GET /users/me, read on every app start and after each purchase: the
 * profile and its school in one prepared statement (one round trip).
 */
const meStatement = preparedStatement<{ phone: string }>(
  (p) =>
    sql`select u.id, u.phone, u.first_name, u.school_id, u.graduation_year, u.instagram_handle, u.gender, u.preference,
          u.photo_key, u.is_verified, u.remaining_unlocks, u.boost_ends_at, u.organizations, u.interests, u.emojis,
          u.paused_at is not null as paused, u.held_for_review_at is not null as held_for_review, u.show_in_preview,
          u.school_email, u.school_verified_at is not null as member,
          s.name as school_name, s.icon as school_icon
        from users u left join schools s on s.id = u.school_id
        where u.phone = ${p.phone}`,
);

export async function getMe(db: Database, phone: string): Promise<MeUser> {
  const [row] = await meStatement<MeRow>(db, { phone });
  if (!row) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  return {
    id: row.id,
    phone: row.phone,
    firstName: row.first_name,
    university: row.school_id,
    graduationYear: row.graduation_year,
    instagramHandle: row.instagram_handle,
    gender: row.gender,
    preference: row.preference,
    profileImage: row.photo_key ? mediaUrl(row.photo_key) : null,
    isVerified: row.is_verified,
    remainingUnlocks: row.remaining_unlocks,
    schoolLogo: row.school_icon,
    schoolName: row.school_name,
    boostEndTime: row.boost_ends_at === null ? null : new Date(row.boost_ends_at).toISOString(),
    organizations: row.organizations,
    interests: row.interests,
    emojis: row.emojis,
    paused: row.paused,
    heldForReview: row.held_for_review,
    showInPreview: row.show_in_preview,
    schoolEmailVerified: row.member,
    schoolEmail: row.school_email,
  };
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
  viewer: { phone: string; sessionId: string },
  input: ProfileUpdate,
  photo?: ProcessedPhoto,
): Promise<MeUser> {
  const { phone } = viewer;
  // Only this academic year's classes, by the server's clock: nobody signs up into a class that graduated.
  if (input.graduationYear !== undefined && !isClassYearOffered(input.graduationYear, deps.now())) {
    throw new AppError("BAD_REQUEST", VALIDATION.graduationYear, {
      fieldErrors: { graduationYear: [VALIDATION.graduationYear] },
    });
  }
  if (input.university !== undefined) {
    const [school] = await deps.db.select({ id: schools.id }).from(schools).where(eq(schools.id, input.university));
    if (!school) {
      throw new AppError("BAD_REQUEST", VALIDATION.university, {
        fieldErrors: { university: [VALIDATION.university] },
      });
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
    ...(stored && { photoKey: stored.photoKey }),
  };
  const proof = input.university !== undefined ? proofFollowsSchool(input.university) : {};

  const [previous] = await deps.db
    .select({ photoKey: users.photoKey, schoolId: users.schoolId })
    .from(users)
    .where(eq(users.phone, phone));
  const now = deps.now();
  // A move to another school starts the student's time there: what their reports weigh (decision 0010).
  if (previous && input.university !== undefined && previous.schoolId !== input.university) changes.schoolSince = now;
  const [updated] = previous
    ? await deps.db
        .update(users)
        .set({ ...changes, ...proof, updatedAt: now })
        .where(eq(users.phone, phone))
        .returning()
    : [];
  // No profile (never made, or deleted since the read above): only a live session may create one.
  let user = updated ?? (await createProfile(deps, viewer, changes, proof, now));

  if (!user.isVerified) {
    const [verified] = await deps.db
      .update(users)
      .set({ isVerified: true, updatedAt: now })
      .where(and(eq(users.id, user.id), ...completeProfile))
      .returning();
    if (verified) user = verified;
  }

  if (stored && previous?.photoKey && previous.photoKey !== stored.photoKey) {
    await deps.media.delete(previous.photoKey);
  }
  // Whoever can be drawn into rounds may have changed (school, gender, photo).
  eligibilityChanged(deps.candidatePool, user.schoolId);
  return toMe(deps.db, user);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Creates the profile, checked against the database rather than the
 * process's memory of revocations (which a process may have missed): the
 * token's session row must still exist — account deletion removes them all
 * — and its family must not be signed out. The row is held FOR SHARE until
 * the profile is written, and deletion removes sessions before profiles, so
 * a deletion racing this either comes first (no row: refused) or waits and
 * then deletes what was written. Open Under 18 reports kept from an earlier
 * account with this phone become reports about the new profile.
 */
async function createProfile(
  { db, jwtSecret }: Pick<ProfileDeps, "db" | "jwtSecret">,
  viewer: { phone: string; sessionId: string },
  changes: Partial<typeof users.$inferInsert>,
  proof: ReturnType<typeof proofFollowsSchool> | Record<string, never>,
  now: Date,
): Promise<User> {
  if (!UUID.test(viewer.sessionId)) throw new AppError("UNAUTHORIZED", ERROR_MESSAGES.unauthorized);
  return db.transaction(async (tx) => {
    const [session] = await tx
      .select({ familyId: authSessions.familyId })
      .from(authSessions)
      .where(and(eq(authSessions.id, viewer.sessionId), eq(authSessions.phone, viewer.phone)))
      .for("share");
    const revoked = session
      ? await tx
          .select({ familyId: sessionRevocations.familyId })
          .from(sessionRevocations)
          .where(eq(sessionRevocations.familyId, session.familyId))
      : [];
    if (!session || revoked.length > 0) throw new AppError("UNAUTHORIZED", ERROR_MESSAGES.unauthorized);
    const [saved] = await tx
      .insert(users)
      .values({ phone: viewer.phone, ...changes, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: users.phone, set: { ...changes, ...proof, updatedAt: now } })
      .returning();
    await takeBackKeptReports(tx, saved!.id, reportedPhoneDigest(jwtSecret, viewer.phone));
    return saved!;
  });
}

/**
 * A proved school address proves membership of that school only: moving to
 * another school clears it in the same statement (the users_school_email_domain_fk
 * refuses a proof that names another school's domain).
 */
function proofFollowsSchool(schoolId: number) {
  const keep = <T>(column: AnyPgColumn) =>
    sql<T>`case when ${users.schoolId} is distinct from ${schoolId} then null else ${column} end`;
  return {
    schoolEmail: keep<string | null>(users.schoolEmail),
    schoolEmailCanonical: keep<string | null>(users.schoolEmailCanonical),
    schoolEmailDomain: keep<string | null>(users.schoolEmailDomain),
    schoolVerifiedAt: keep<Date | null>(users.schoolVerifiedAt),
  };
}

/** Every field a profile requires, plus a processed photo. */
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
  const photoKey = `photos/${randomUUID()}.jpg`;
  await media.put(photoKey, photo.photo, "image/jpeg");
  return { photoKey };
}

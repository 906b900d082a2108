import type { CandidateOption } from "@quad/contracts";
import { sql, type SQL } from "drizzle-orm";
import { mediaUrl } from "../../media/storage";

/**
 * Helpers for the rounds module's hand-written statements. Raw results come
 * back as each driver parses them (drizzle leaves timestamps as strings), so
 * times travel as epoch milliseconds and rows as JSON, which both parse alike.
 */

/** A timestamp column as epoch milliseconds (float8, a number on both drivers). */
export const epochMs = (column: SQL): SQL => sql`(extract(epoch from ${column}) * 1000)::float8`;

export const dateOfMs = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

/** postgres.js and PGlite both parse json columns; a string is parsed here just in case. */
export const fromJson = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

/** The public fields of a student (docs/product.md "What others may see") as one json object: never a handle, never a phone. */
export const publicProfileJson = (alias: string): SQL =>
  sql.raw(
    `json_build_object('id', ${alias}.id, 'photoKey', ${alias}.photo_key, 'firstName', ${alias}.first_name, ` +
      `'graduationYear', ${alias}.graduation_year, 'organizations', ${alias}.organizations, 'interests', ${alias}.interests)`,
  );

export interface PublicProfileRow {
  id: string;
  photoKey: string;
  firstName: string;
  graduationYear: number;
  organizations: string[];
  interests: string[];
}

/** A verified profile always has these fields (the users_verified_profile_complete check). */
export const toCandidate = (row: PublicProfileRow): CandidateOption => ({
  id: row.id,
  profileImageUrl: mediaUrl(row.photoKey),
  firstName: row.firstName,
  graduationYear: row.graduationYear,
  organizations: row.organizations,
  interests: row.interests,
});

/**
 * The voter's preferred gender in SQL, for a users row aliased `u`: until a
 * student picks one on the home screen, they see the other gender.
 */
export const PREFERRED_GENDER = sql.raw(
  `coalesce(u.preference, case u.gender when 'male' then 'female'::gender else 'male'::gender end)`,
);

/** Neither of two users (SQL expressions) has blocked the other. */
export const notBlockedEitherWay = (a: SQL, b: SQL): SQL =>
  sql`not exists (select 1 from blocks k where (k.blocker_id = ${a} and k.blocked_id = ${b}) or (k.blocker_id = ${b} and k.blocked_id = ${a}))`;

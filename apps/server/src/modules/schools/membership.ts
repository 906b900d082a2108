import { SCHOOL_EMAIL_MESSAGES } from "@quad/contracts";
import type { Database } from "@quad/db";
import { users } from "@quad/db/schema";
import { and, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { AppError } from "../../errors";

/**
 * Who Quad shows and who may act, spelled once (docs/product.md "School
 * e-mail"). A student is shown to others only with a complete profile, a
 * proved school membership and no pause or hold; the partial indexes
 * users_candidates_idx and users_preview_idx carry the same predicate, so
 * every query must repeat it whole for the planner to use them.
 */
export const shownSql = (alias: string): SQL =>
  sql.raw(`${alias}.is_verified and ${alias}.school_verified_at is not null and ${alias}.paused_at is null`);

/** The same rule for Drizzle's query builder. */
export const shownWhere = (): SQL =>
  and(eq(users.isVerified, true), isNotNull(users.schoolVerifiedAt), isNull(users.pausedAt))!;

/** May vote, report, block or open the inbox: a complete profile and a proved membership (pausing only hides). */
export const memberSql = (alias: string): SQL =>
  sql.raw(`(${alias}.is_verified and ${alias}.school_verified_at is not null)`);

/** What every voting, reporting, blocking and inbox endpoint answers a student who has not proved a school address. */
export const notMemberError = (): AppError => new AppError("FORBIDDEN", SCHOOL_EMAIL_MESSAGES.verifyToVote);

/** Refuses a student (by id) who has not proved membership of their school. */
export async function requireMember(db: Database, userId: string): Promise<void> {
  const [row] = await db
    .select({ member: sql<boolean>`${memberSql("users")}` })
    .from(users)
    .where(eq(users.id, userId));
  if (!row?.member) throw notMemberError();
}

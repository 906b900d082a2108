import { BOOST_MESSAGES } from "@quad/contracts";
import type { Database } from "@quad/db";
import { users } from "@quad/db/schema";
import { eq, sql } from "drizzle-orm";
import { AppError } from "../../errors";
import { memberSql } from "../schools/membership";

/**
 * A boost is sold only to a student who is shown (a proved member, not
 * paused, not held): to anyone else its days would run while nobody sees
 * them. Held comes before paused: a hold pauses the profile too.
 */
export async function requireShownForBoost(db: Database, userId: string): Promise<void> {
  const [row] = await db
    .select({ member: sql<boolean>`${memberSql("users")}`, pausedAt: users.pausedAt, heldAt: users.heldForReviewAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!row?.member) throw new AppError("FORBIDDEN", BOOST_MESSAGES.notMember);
  if (row.heldAt) throw new AppError("FORBIDDEN", BOOST_MESSAGES.held);
  if (row.pausedAt) throw new AppError("FORBIDDEN", BOOST_MESSAGES.paused);
}

import { ERROR_MESSAGES } from "@quad/contracts";
import type { Database } from "@quad/db";
import { users } from "@quad/db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "../../errors";
import type { CandidatePool } from "../rounds/candidate-pool";
import { eligibilityChanged } from "../rounds/eligibility";
import { getMe } from "../users/profile";

interface AccountDeps {
  db: Database;
  candidatePool: CandidatePool;
  now: () => Date;
}

/** Pauses or resumes the profile: a paused profile is never drawn. */
export async function setPaused(deps: AccountDeps, phone: string, paused: boolean) {
  const now = deps.now();
  const [row] = await deps.db
    .update(users)
    .set({ pausedAt: paused ? now : null, updatedAt: now })
    // A profile held for review stays paused until a moderator restores it.
    .where(and(eq(users.phone, phone), paused ? undefined : isNull(users.heldForReviewAt)))
    .returning({ schoolId: users.schoolId });
  if (!row) {
    await getMe(deps.db, phone);
    throw new AppError("FORBIDDEN", ERROR_MESSAGES.heldForReview);
  }
  eligibilityChanged(deps.candidatePool, row.schoolId);
  return getMe(deps.db, phone);
}

/** Opts in or out of the public landing preview. */
export async function setPreview(deps: AccountDeps, phone: string, showInPreview: boolean) {
  const [row] = await deps.db
    .update(users)
    .set({ showInPreview, updatedAt: deps.now() })
    .where(eq(users.phone, phone))
    .returning({ id: users.id });
  if (!row) await getMe(deps.db, phone);
  eligibilityChanged(deps.candidatePool);
  return getMe(deps.db, phone);
}

import type { CandidatePool } from "./candidate-pool";

/**
 * The one place that tells the candidate pools that who may be drawn changed: called by the
 * services that change it (a profile paused, verified, moved to another school or gender, its
 * photo removed, held for review, deleted, its preview opt-in or boost changed), never by a
 * router. Every process hears it (modules/rounds/pool-invalidation.ts, decision 0004).
 * `schoolId`: the school whose pools changed; none (or null) clears every school's.
 * eligibility.test.ts fails if a change of eligibility is not followed by this.
 */
export function eligibilityChanged(pool: CandidatePool, schoolId?: number | null): void {
  pool.invalidate(schoolId ?? undefined);
}

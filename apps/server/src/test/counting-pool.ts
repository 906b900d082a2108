import type { Database } from "@quad/db";
import { createCandidatePool, type CandidatePool } from "../modules/rounds/candidate-pool";

/**
 * A real candidate pool that records each invalidation, for tests that check
 * who tells the pools about a change. The app needs the pool before its
 * database exists, so the real one is attached afterwards with `attach`.
 */
export function countingCandidatePool(onInvalidate: (schoolId: number | undefined) => void) {
  let real: CandidatePool | undefined;
  const pool: CandidatePool = {
    candidates: (...args) => real!.candidates(...args),
    previewSchools: (...args) => real!.previewSchools(...args),
    activePromptIds: () => real!.activePromptIds(),
    invalidate: (schoolId) => {
      onInvalidate(schoolId);
      real?.invalidate(schoolId);
    },
  };
  const attach = (db: Database, nowMs?: () => number) => {
    real = createCandidatePool(db, nowMs);
  };
  return { pool, attach };
}

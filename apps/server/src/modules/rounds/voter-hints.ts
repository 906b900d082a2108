import type { Gender } from "@quad/contracts";
import type { CandidatePool } from "./candidate-pool";

/** Where a voter was last seen drawing from: only a guess, checked by the statement that uses it. */
export interface VoterHint {
  voterId: string;
  schoolId: number;
  shownGender: Gender;
}

/** Enough for every active voter of a big deployment, bounded so memory is too (about 20 MB). */
export const VOTER_HINTS_MAX = 100_000;

/**
 * phone → the voter's id, school and shown gender, per process. The session
 * token carries only the phone, so without this the draw would wait for a
 * first query to learn which pool to draw from. A Map keeps insertion order:
 * a hit is moved to the end and the oldest entry goes first (an LRU).
 */
export class VoterHints {
  private readonly entries = new Map<string, VoterHint>();

  constructor(private readonly max = VOTER_HINTS_MAX) {}

  get(phone: string): VoterHint | undefined {
    const hint = this.entries.get(phone);
    if (hint) {
      this.entries.delete(phone);
      this.entries.set(phone, hint);
    }
    return hint;
  }

  set(phone: string, hint: VoterHint): void {
    this.entries.delete(phone);
    this.entries.set(phone, hint);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(phone: string): void {
    this.entries.delete(phone);
  }

  get size(): number {
    return this.entries.size;
  }
}

// One per candidate pool, which is one per app: tests' apps never share hints.
const hintsByPool = new WeakMap<CandidatePool, VoterHints>();

export function voterHintsOf(pool: CandidatePool): VoterHints {
  let hints = hintsByPool.get(pool);
  if (!hints) hintsByPool.set(pool, (hints = new VoterHints()));
  return hints;
}

import {
  ERROR_MESSAGES,
  SCREEN_TEXT,
  TOASTS,
  type CandidateOption,
  type Gender,
  type PromptError,
  type PromptResponse,
  type VoteResult,
} from "@quad/contracts";
import { isUniqueViolation, type Database } from "@quad/db";
import { prompts, rounds, users, votes, type Round, type VoterState } from "@quad/db/schema";
import { and, desc, eq } from "drizzle-orm";
import { AppError } from "../../errors";
import { readAllowance, countVote, inCooldown, takeSkip } from "./allowance";
import type { CandidatePool } from "./candidate-pool";
import { blockedEitherWay, publicProfiles } from "./candidates";
import { drawPair, drawWeighted, type Random } from "./draw";

export interface RoundDeps {
  db: Database;
  pool: CandidatePool;
  now: () => Date;
  random: Random;
}

/** How far back "recently shown" and "prompt already used" look. */
const RECENT_ROUNDS = 50;
const PROMPT_MEMORY_ROUNDS = 24;

export const ROUND_MESSAGES = {
  notVerified: TOASTS.completeProfile,
  outOfSkips: SCREEN_TEXT.outOfSkipsBody,
  outOfVotes: SCREEN_TEXT.outOfVotesBody,
  roundClosed: "This round has ended. Load the next one.",
  notInRound: "That student is not part of your current round.",
  blocked: "You can't vote for this student.",
  noPrompts: "No prompts are available right now.",
} as const;

interface Voter {
  id: string;
  schoolId: number;
  gender: Gender;
  preference: Gender | null;
}

async function loadVoter(db: Database, phone: string): Promise<Voter> {
  const [row] = await db
    .select({ id: users.id, schoolId: users.schoolId, gender: users.gender, preference: users.preference, isVerified: users.isVerified })
    .from(users)
    .where(eq(users.phone, phone));
  if (!row) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  if (!row.isVerified || row.schoolId === null || row.gender === null) throw new AppError("FORBIDDEN", ROUND_MESSAGES.notVerified);
  return { id: row.id, schoolId: row.schoolId, gender: row.gender, preference: row.preference };
}

/** Until a student picks one on the home screen, they see the other gender. */
const preferenceOf = (voter: Voter): Gender => voter.preference ?? (voter.gender === "male" ? "female" : "male");

const outOfVotes = (availableAt: Date): PromptError => ({
  error: "out_of_votes",
  message: ROUND_MESSAGES.outOfVotes,
  availableAt: availableAt.toISOString(),
});
const noCandidates: PromptError = { error: "no_candidates", message: SCREEN_TEXT.noStudents };

/**
 * GET /prompts/random. Answers the voter's open round (so a reload does not
 * burn rounds), or opens a new one; skip=true closes the open round as
 * skipped first, if a skip is left.
 */
export async function nextRound(deps: RoundDeps, phone: string, opts: { skip: boolean }): Promise<PromptResponse> {
  const now = deps.now();
  const voter = await loadVoter(deps.db, phone);
  let state = await readAllowance(deps.db, voter.id, now);
  if (inCooldown(state, now)) return outOfVotes(state.cooldownUntil!);

  if (opts.skip) {
    // Closing the round and taking the skip commit together or not at all.
    await deps.db.transaction(async (tx) => {
      const [closed] = await tx
        .update(rounds)
        .set({ status: "skipped", closedAt: now })
        .where(and(eq(rounds.voterId, voter.id), eq(rounds.status, "open")))
        .returning({ id: rounds.id });
      if (closed && !(await takeSkip(tx, voter.id, now))) throw new AppError("CONFLICT", ROUND_MESSAGES.outOfSkips);
    });
    state = await readAllowance(deps.db, voter.id, now);
  }

  const [open] = await deps.db.select().from(rounds).where(and(eq(rounds.voterId, voter.id), eq(rounds.status, "open")));
  if (open) {
    const shown = await presentRound(deps.db, open, state, preferenceOf(voter));
    if (shown) return shown;
    // A candidate left (paused, blocked, unverified) since the round opened: replace it.
    await deps.db.update(rounds).set({ status: "closed", closedAt: now }).where(and(eq(rounds.id, open.id), eq(rounds.status, "open")));
  }
  return openRound(deps, voter, state, now);
}

async function openRound(deps: RoundDeps, voter: Voter, state: VoterState, now: Date): Promise<PromptResponse> {
  const gender = preferenceOf(voter);
  const [pool, promptIds, recentRounds, blocked] = await Promise.all([
    deps.pool.candidates(voter.schoolId, gender),
    deps.pool.activePromptIds(),
    deps.db
      .select({ promptId: rounds.promptId, a: rounds.candidateAId, b: rounds.candidateBId })
      .from(rounds)
      .where(eq(rounds.voterId, voter.id))
      .orderBy(desc(rounds.createdAt))
      .limit(RECENT_ROUNDS),
    blockedEitherWay(deps.db, voter.id),
  ]);
  if (promptIds.length === 0) return { error: "no_prompts", message: ROUND_MESSAGES.noPrompts };

  const always = new Set([voter.id, ...blocked]);
  const recent = recentRounds.flatMap((round) => [round.a, round.b]);
  let pair: [CandidateOption, CandidateOption] | null = null;
  for (let attempt = 0; attempt < 3 && !pair; attempt++) {
    const drawn = drawPair(pool, { always, recent, now: now.getTime(), random: deps.random });
    if (!drawn) return noCandidates;
    const profiles = await publicProfiles(deps.db, [drawn[0].id, drawn[1].id], { schoolId: voter.schoolId, gender });
    const [a, b] = [profiles.get(drawn[0].id), profiles.get(drawn[1].id)];
    if (a && b) pair = [a, b];
    else {
      // The cached pool was stale: leave those out and reload it next time.
      for (const entry of drawn) if (!profiles.has(entry.id)) always.add(entry.id);
      deps.pool.invalidate(voter.schoolId);
    }
  }
  if (!pair) return noCandidates;

  const usedPrompts = new Set(recentRounds.slice(0, PROMPT_MEMORY_ROUNDS).map((round) => round.promptId));
  const fresh = promptIds.filter((id) => !usedPrompts.has(id));
  const choices = fresh.length > 0 ? fresh : promptIds;
  const promptId = choices[Math.floor(deps.random() * choices.length)]!;

  try {
    const [round] = await deps.db
      .insert(rounds)
      .values({ voterId: voter.id, promptId, candidateAId: pair[0].id, candidateBId: pair[1].id, createdAt: now })
      .returning();
    return (await presentRound(deps.db, round!, state, gender, pair)) ?? noCandidates;
  } catch (error) {
    // Another request opened a round at the same moment: answer that one.
    if (!isUniqueViolation(error, "rounds_one_open_per_voter")) throw error;
    const [open] = await deps.db.select().from(rounds).where(and(eq(rounds.voterId, voter.id), eq(rounds.status, "open")));
    return (open && (await presentRound(deps.db, open, state, gender))) || noCandidates;
  }
}

/** The round as the client sees it, or null when a candidate is no longer eligible. */
async function presentRound(
  db: Database,
  round: Round,
  state: VoterState,
  gender: Gender,
  known?: [CandidateOption, CandidateOption],
): Promise<PromptResponse | null> {
  const [prompt] = await db.select({ id: prompts.id, text: prompts.text }).from(prompts).where(eq(prompts.id, round.promptId));
  let pair = known;
  if (!pair) {
    const profiles = await publicProfiles(db, [round.candidateAId, round.candidateBId], { gender });
    const [a, b] = [profiles.get(round.candidateAId), profiles.get(round.candidateBId)];
    if (!a || !b) return null;
    pair = [a, b];
  }
  return { prompt: { id: prompt!.id, prompt: prompt!.text, skipDisabled: state.skipsInRow >= 3 }, users: pair };
}

/**
 * POST /votes/store. Accepted only for a candidate of the voter's open
 * round with that round's prompt. The allowance row is locked for the
 * whole transaction, so parallel votes are counted one at a time and the
 * round can be used once.
 */
export async function castVote(
  deps: RoundDeps,
  phone: string,
  input: { userId: string; promptId: number; preference?: Gender },
): Promise<VoteResult> {
  const now = deps.now();
  const voter = await loadVoter(deps.db, phone);
  const result = await deps.db.transaction(async (tx) => {
    const state = await readAllowance(tx, voter.id, now, { lock: true });
    if (inCooldown(state, now)) {
      throw new AppError("TOO_MANY_REQUESTS", ROUND_MESSAGES.outOfVotes, {
        retryAfterSeconds: Math.ceil((state.cooldownUntil!.getTime() - now.getTime()) / 1000),
      });
    }
    const [round] = await tx
      .select()
      .from(rounds)
      .where(and(eq(rounds.voterId, voter.id), eq(rounds.status, "open")))
      .for("update");
    if (!round) throw new AppError("CONFLICT", ROUND_MESSAGES.roundClosed);
    if (round.promptId !== input.promptId || (input.userId !== round.candidateAId && input.userId !== round.candidateBId)) {
      throw new AppError("BAD_REQUEST", ROUND_MESSAGES.notInRound);
    }
    if ((await blockedEitherWay(tx, voter.id)).has(input.userId)) throw new AppError("CONFLICT", ROUND_MESSAGES.blocked);
    await tx.insert(votes).values({ roundId: round.id, voterId: voter.id, recipientId: input.userId, promptId: round.promptId, createdAt: now });
    await tx.update(rounds).set({ status: "voted", closedAt: now }).where(eq(rounds.id, round.id));
    if (input.preference) await tx.update(users).set({ preference: input.preference, updatedAt: now }).where(eq(users.id, voter.id));
    return countVote(tx, state, now);
  });
  return result.availableAt ? { disabled: result.disabled, availableAt: result.availableAt.toISOString() } : { disabled: result.disabled };
}

/**
 * GET /prompts/unauthenticated: a preview for visitors, two real students
 * of one gender who opted in to the landing preview, from a school with at
 * least two of them. Public fields only.
 */
export async function previewRound(deps: RoundDeps, gender: Gender): Promise<PromptResponse> {
  const [schools, promptIds] = await Promise.all([deps.pool.previewSchools(gender), deps.pool.activePromptIds()]);
  if (promptIds.length === 0) return { error: "no_prompts", message: ROUND_MESSAGES.noPrompts };
  const schoolIds = [...schools.keys()];
  for (let attempt = 0; attempt < 3 && schoolIds.length > 0; attempt++) {
    const schoolId = schoolIds[Math.floor(deps.random() * schoolIds.length)]!;
    const drawn = drawWeighted(schools.get(schoolId)!, new Set(), 2, deps.now().getTime(), deps.random);
    if (!drawn) continue;
    const profiles = await publicProfiles(deps.db, drawn.map((e) => e.id), { schoolId, gender, previewOnly: true });
    const [a, b] = [profiles.get(drawn[0]!.id), profiles.get(drawn[1]!.id)];
    if (!a || !b) {
      deps.pool.invalidate(schoolId);
      continue;
    }
    const promptId = promptIds[Math.floor(deps.random() * promptIds.length)]!;
    const [prompt] = await deps.db.select({ id: prompts.id, text: prompts.text }).from(prompts).where(eq(prompts.id, promptId));
    return { prompt: { id: prompt!.id, prompt: prompt!.text, skipDisabled: false }, users: [a, b] };
  }
  return noCandidates;
}

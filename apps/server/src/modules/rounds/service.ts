import {
  ERROR_MESSAGES,
  SCREEN_TEXT,
  SKIPS_IN_A_ROW,
  TOASTS,
  type Gender,
  type RoundError,
  type RoundResponse,
  type VoteResult,
} from "@quad/contracts";
import type { LiveHub } from "../live/hub";
import type { Database } from "@quad/db";
import { prompts } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { AppError } from "../../errors";
import type { Context } from "../../trpc/context";
import { notMemberError } from "../schools/membership";
import type { CandidatePool } from "./candidate-pool";
import { eligibilityChanged } from "./eligibility";
import { publicProfiles } from "./candidates";
import { storeVote } from "./cast-vote";
import { drawPair, drawWeighted, type Random } from "./draw";
import { openRound } from "./open-round";
import { closeLeftRound } from "./round-history";
import { readRoundState, type OpenRound, type RoundState } from "./round-state";
import { skipOpenRound } from "./skip-round";
import { product } from "../../metrics/registry";
import { deliveryMoment } from "../inbox/delivery";

export interface RoundDeps {
  db: Database;
  pool: CandidatePool;
  now: () => Date;
  random: Random;
  /** A vote reaches its recipient at a random moment within this many milliseconds after it is cast. */
  deliveryWindowMs: number;
  /** Announces changed allowances to the voter's open apps (absent in tests that call services alone). */
  live?: Pick<LiveHub, "publish">;
}

/** A round's dependencies, from a procedure's context. */
export const roundDeps = (ctx: Context): RoundDeps => ({
  db: ctx.db,
  pool: ctx.candidatePool,
  now: ctx.now,
  random: ctx.random,
  deliveryWindowMs: ctx.config.VOTE_DELIVERY_WINDOW_S * 1000,
  live: ctx.live,
});

export const ROUND_MESSAGES = {
  notVerified: TOASTS.completeProfile,
  outOfSkips: SCREEN_TEXT.outOfSkipsBody,
  outOfVotes: SCREEN_TEXT.outOfVotesBody,
  roundClosed: "This round has ended. Load the next one.",
  notInRound: "That student is not part of your current round.",
  blocked: "You can't vote for this student.",
  noPrompts: "No prompts are available right now.",
} as const;

/** A voter who may vote: verified, so with a school and a gender, and a proved member of the school. */
type VotingState = RoundState & { voter: { schoolId: number; gender: Gender } };

async function votingState(db: Database, phone: string): Promise<VotingState> {
  const state = await readRoundState(db, phone);
  if (!state) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  const { voter } = state;
  if (!voter.isVerified || voter.schoolId === null || voter.gender === null)
    throw new AppError("FORBIDDEN", ROUND_MESSAGES.notVerified);
  if (!voter.member) throw notMemberError();
  return state as VotingState;
}

const inCooldown = (cooldownUntil: Date | null, now: Date): cooldownUntil is Date =>
  cooldownUntil !== null && cooldownUntil > now;

const outOfVotes = (availableAt: Date): RoundError => ({
  error: "out_of_votes",
  message: ROUND_MESSAGES.outOfVotes,
  availableAt: availableAt.toISOString(),
});
const noCandidates: RoundError = { error: "no_candidates", message: SCREEN_TEXT.noStudents };

const present = (
  round: { promptId: number; promptText: string },
  pair: NonNullable<OpenRound["pair"]>,
  skipsInRow: number,
): RoundResponse => ({
  prompt: { id: round.promptId, prompt: round.promptText, skipDisabled: skipsInRow >= SKIPS_IN_A_ROW },
  users: pair,
});

/**
 * GET /prompts/random. Answers the voter's open round (so a reload does not
 * burn rounds), or opens a new one; skip=true closes the open round as
 * skipped first, if a skip is left. Round trips: one to answer the open
 * round or the cooldown, two to open a round, three to skip and open.
 */
export async function nextRound(deps: RoundDeps, phone: string, opts: { skip: boolean }): Promise<RoundResponse> {
  const now = deps.now();
  let state = await votingState(deps.db, phone);
  if (inCooldown(state.cooldownUntil, now)) return outOfVotes(state.cooldownUntil);

  if (opts.skip && state.open) {
    if (state.skipsInRow >= SKIPS_IN_A_ROW) throw new AppError("CONFLICT", ROUND_MESSAGES.outOfSkips);
    const skip = await skipOpenRound(
      deps.db,
      { voterId: state.voter.id, openedAt: state.open.openedAt, candidateIds: state.open.candidateIds },
      now,
    );
    if (skip.skipped) {
      state = { ...state, skipsInRow: skip.skipsInRow, open: null };
      deps.live?.publish({ kind: "state", userId: state.voter.id });
    } else if (skip.reason === "out_of_skips") throw new AppError("CONFLICT", ROUND_MESSAGES.outOfSkips);
    // Another request closed that round meanwhile: carry on from what it left.
    else state = await votingState(deps.db, phone);
  }

  if (state.open) {
    if (state.open.pair) return present(state.open, state.open.pair, state.skipsInRow);
    // A candidate left (paused, held, unverified, blocked) since the round opened: replace it.
    await closeLeftRound(deps.db, state.voter.id, state.open, now);
  }
  return drawRound(deps, phone, state, now);
}

async function drawRound(deps: RoundDeps, phone: string, state: VotingState, now: Date): Promise<RoundResponse> {
  const { voter, shownGender: gender } = state;
  const [pool, promptIds] = await Promise.all([
    deps.pool.candidates(voter.schoolId, gender),
    deps.pool.activePromptIds(),
  ]);
  if (promptIds.length === 0) return { error: "no_prompts", message: ROUND_MESSAGES.noPrompts };

  const always = new Set([voter.id, ...state.blocked]);
  const recent = state.recentCandidates;
  const usedPrompts = new Set(state.recentPrompts);
  const fresh = promptIds.filter((id) => !usedPrompts.has(id));
  const choices = fresh.length > 0 ? fresh : promptIds;
  let promptId: number | undefined;

  for (let attempt = 0; attempt < 3; attempt++) {
    const drawn = drawPair(pool, { always, recent, now: now.getTime(), random: deps.random });
    if (!drawn) return noCandidates;
    promptId ??= choices[Math.floor(deps.random() * choices.length)]!;
    const pair: [string, string] = [drawn[0].id, drawn[1].id];
    const opened = await openRound(deps.db, {
      voterId: voter.id,
      schoolId: voter.schoolId,
      gender,
      pair,
      promptId,
      now,
    });
    if (opened.opened) {
      product.roundsOpened.inc();
      return present(
        { promptId, promptText: opened.promptText! },
        [opened.eligible.get(pair[0])!, opened.eligible.get(pair[1])!],
        state.skipsInRow,
      );
    }
    if (opened.eligible.size === 2) {
      // Another request opened a round at the same moment: answer that one.
      const open = (await votingState(deps.db, phone)).open;
      return open?.pair ? present(open, open.pair, state.skipsInRow) : noCandidates;
    }
    // The cached pool was stale: leave those out and reload it next time.
    for (const id of pair) if (!opened.eligible.has(id)) always.add(id);
    eligibilityChanged(deps.pool, voter.schoolId);
  }
  return noCandidates;
}

/**
 * POST /votes/store: one statement (see cast-vote.ts), accepted only for a
 * candidate of the voter's open round with that round's prompt.
 */
export async function castVote(
  deps: RoundDeps,
  phone: string,
  input: { userId: string; promptId: number; preference?: Gender },
): Promise<VoteResult> {
  const now = deps.now();
  const outcome = await storeVote(deps.db, {
    phone,
    candidateId: input.userId,
    promptId: input.promptId,
    preference: input.preference,
    now,
    deliveredAt: deliveryMoment(now, deps.deliveryWindowMs),
  });
  if (outcome.stored) {
    product.votes.inc();
    // The voter's other tabs and devices show their votes left; the recipient hears of the vote at its
    // delivery moment (the live hub's delivery tick), never now.
    deps.live?.publish({ kind: "state", userId: outcome.voterId });
    return outcome.availableAt
      ? { disabled: outcome.disabled, availableAt: outcome.availableAt.toISOString() }
      : { disabled: outcome.disabled };
  }
  switch (outcome.reason) {
    case "no_voter":
      throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
    case "not_verified":
      throw new AppError("FORBIDDEN", ROUND_MESSAGES.notVerified);
    case "not_member":
      throw notMemberError();
    case "cooldown":
      throw cooldownError(outcome.cooldownUntil, now);
    // A candidate who left since the round opened (paused, held, unverified, moved): the next request replaces the round.
    case "no_open_round":
    case "candidate_gone":
      throw new AppError("CONFLICT", ROUND_MESSAGES.roundClosed);
    case "not_in_round":
      throw new AppError("BAD_REQUEST", ROUND_MESSAGES.notInRound);
    case "blocked":
      throw new AppError("CONFLICT", ROUND_MESSAGES.blocked);
    case "lost_race": {
      // A concurrent vote won the round; if it was the batch's last, say so as a refused vote would.
      const { cooldownUntil } = await votingState(deps.db, phone);
      if (inCooldown(cooldownUntil, now)) throw cooldownError(cooldownUntil, now);
      throw new AppError("CONFLICT", ROUND_MESSAGES.roundClosed);
    }
  }
}

const cooldownError = (cooldownUntil: Date, now: Date) =>
  new AppError("TOO_MANY_REQUESTS", ROUND_MESSAGES.outOfVotes, {
    retryAfterSeconds: Math.ceil((cooldownUntil.getTime() - now.getTime()) / 1000),
  });

/**
 * GET /prompts/unauthenticated: a preview for visitors, two real students
 * of one gender who opted in to the landing preview, from a school with at
 * least two of them. Public fields only.
 */
export async function previewRound(deps: RoundDeps, gender: Gender): Promise<RoundResponse> {
  const [schools, promptIds] = await Promise.all([deps.pool.previewSchools(gender), deps.pool.activePromptIds()]);
  if (promptIds.length === 0) return { error: "no_prompts", message: ROUND_MESSAGES.noPrompts };
  const schoolIds = [...schools.keys()];
  for (let attempt = 0; attempt < 3 && schoolIds.length > 0; attempt++) {
    const schoolId = schoolIds[Math.floor(deps.random() * schoolIds.length)]!;
    const drawn = drawWeighted(schools.get(schoolId)!, new Set(), 2, deps.now().getTime(), deps.random);
    if (!drawn) continue;
    const profiles = await publicProfiles(
      deps.db,
      drawn.map((e) => e.id),
      { schoolId, gender, previewOnly: true },
    );
    const [a, b] = [profiles.get(drawn[0]!.id), profiles.get(drawn[1]!.id)];
    if (!a || !b) {
      eligibilityChanged(deps.pool, schoolId);
      continue;
    }
    const promptId = promptIds[Math.floor(deps.random() * promptIds.length)]!;
    const [prompt] = await deps.db
      .select({ id: prompts.id, text: prompts.text })
      .from(prompts)
      .where(eq(prompts.id, promptId));
    return { prompt: { id: prompt!.id, prompt: prompt!.text, skipDisabled: false }, users: [a, b] };
  }
  return noCandidates;
}

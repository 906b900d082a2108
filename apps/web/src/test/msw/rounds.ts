import { http, HttpResponse } from "msw";
import {
  SCREEN_TEXT,
  type CandidateOption,
  type Gender,
  type MeUser,
  type RoundError,
  type RoundResponse,
  type Round,
} from "@quad/contracts";
import { createMeUser } from "./fixtures";
import { inTurn, recording, trpcError, type ProcedureOutput, type TrpcErrorResult, type TrpcResolvers } from "./trpc";

/** Fixtures and canned answers for the voting screens' tests. */

const NAMES: Record<Gender, string[]> = {
  female: ["Maya", "Zoe", "Priya", "Nora", "Ivy", "Lucia", "Amara", "Mei"],
  male: ["Liam", "Kai", "Omar", "Theo", "Felix", "Mateo", "Kenji", "Jonah"],
};
const PROMPTS = [
  "Most likely to start a company",
  "Best person to study with",
  "Best listener",
  "Most creative thinker",
  "Best at board games",
];

export function createCandidate(overrides: Partial<CandidateOption> = {}): CandidateOption {
  return {
    id: "cand-maya",
    profileImageUrl: "/api/media/avatars/cand-maya.jpg",
    firstName: "Maya",
    graduationYear: 2027,
    organizations: ["Debate Society"],
    interests: ["Hiking", "Jazz"],
    ...overrides,
  };
}

export function createRound(
  overrides: { id?: number; prompt?: string; skipDisabled?: boolean; users?: [CandidateOption, CandidateOption] } = {},
): Round {
  return {
    prompt: {
      id: overrides.id ?? 1,
      prompt: overrides.prompt ?? PROMPTS[0]!,
      skipDisabled: overrides.skipDisabled ?? false,
    },
    users: overrides.users ?? [
      createCandidate(),
      createCandidate({
        id: "cand-zoe",
        firstName: "Zoe",
        graduationYear: 2026,
        profileImageUrl: "/api/media/avatars/cand-zoe.jpg",
      }),
    ],
  };
}

/** The nth round (0-based) of one gender: names and prompts rotate, so consecutive rounds differ. */
export function nthRound(n: number, gender: Gender = "female", skipDisabled = false): Round {
  const names = NAMES[gender];
  const candidate = (i: number): CandidateOption => {
    const name = names[i % names.length]!;
    return createCandidate({
      id: `cand-${gender}-${i}`,
      firstName: name,
      graduationYear: 2025 + (i % 5),
      profileImageUrl: `/api/media/avatars/${gender}-${i}.jpg`,
      organizations: i % 2 === 0 ? ["Robotics Club", "Model UN", "Jazz Band"] : ["Film Society"],
      interests: i % 2 === 0 ? ["Climbing", "Coffee", "Chess", "Poetry"] : ["Surfing"],
    });
  };
  return {
    prompt: { id: 100 + n, prompt: PROMPTS[n % PROMPTS.length]!, skipDisabled },
    users: [candidate(2 * n), candidate(2 * n + 1)],
  };
}

/** GET /api/prompts/unauthenticated (the landing preview, plain fetch). */
export function previewHandler(answer: (gender: Gender) => RoundResponse | Response, calls: Gender[] = []) {
  return http.get("*/api/prompts/unauthenticated", ({ request }) => {
    const gender = new URL(request.url).searchParams.get("gender") as Gender;
    calls.push(gender);
    const result = answer(gender);
    return result instanceof Response ? result : HttpResponse.json(result);
  });
}

type RoundAnswer = ProcedureOutput<"rounds.open"> | TrpcErrorResult;
type VoteAnswer = ProcedureOutput<"rounds.vote"> | TrpcErrorResult;

/** rounds.open's answer when the voter is out of votes until `availableAt` (ISO). */
export function outOfVotes(availableAt: string): RoundError {
  return { error: "out_of_votes", message: SCREEN_TEXT.outOfVotesBody, availableAt };
}

/** rounds.open's answer when no student of the chosen gender can be shown. */
export const NO_CANDIDATES: RoundError = { error: "no_candidates", message: SCREEN_TEXT.noStudents };

/**
 * rounds.vote refused during the cooldown as the server words it: 429 with
 * the "Out of Votes" text and retryAfterSeconds in the error data.
 */
export function voteRefusedForCooldown(retryAfterSeconds: number): TrpcErrorResult {
  return { ...trpcError("TOO_MANY_REQUESTS", SCREEN_TEXT.outOfVotesBody), retryAfterSeconds };
}

export interface RoundsAnswersOptions {
  me?: Partial<MeUser>;
  /**
   * The rounds served in turn, one a call of rounds.open or rounds.skip (the
   * open round, then one after each vote, skip or preference change); the last again once the
   * others are used. `nthRound(0)` of the gender `me` sees by default.
   */
  rounds?: RoundAnswer[];
  /** rounds.vote's answers in turn; each vote goes through (`{ disabled: false }`) by default. */
  votes?: VoteAnswer[];
  overrides?: TrpcResolvers;
}

/**
 * Canned answers for the voting screen: the student `me`, the rounds
 * rounds.open and rounds.skip serve and what rounds.vote answers, as the test states
 * them; users.update answers the profile with the change applied. The rules
 * behind the answers (the allowance per batch, the cooldown, skips in a row,
 * votes only for the open round's candidates) are the server's, tested in
 * apps/server and apps/web/e2e. `sent(path)` is what the UI sent.
 */
export function roundsAnswers(options: RoundsAnswersOptions = {}) {
  const me = createMeUser(options.me);
  const seen: Gender = me.preference ?? (me.gender === "male" ? "female" : "male");
  const rounds = inTurn(...(options.rounds ?? [nthRound(0, seen)]));
  const votes = inTurn(...(options.votes ?? [{ disabled: false }]));
  const { resolvers, sent } = recording({
    "users.me": () => me,
    "users.update": ({ input }) => ({ user: { ...me, ...(input as Partial<MeUser>) } }),
    "rounds.open": rounds,
    "rounds.skip": rounds,
    "rounds.vote": votes,
    ...options.overrides,
  });
  return { me, sent, resolvers };
}

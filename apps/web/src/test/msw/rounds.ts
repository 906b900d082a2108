import { http, HttpResponse } from "msw";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import {
  SCREEN_TEXT,
  SKIPS_IN_A_ROW,
  VOTE_COOLDOWN_MS,
  VOTES_PER_BATCH,
  type CandidateOption,
  type Gender,
  type MeUser,
  type PromptError,
  type PromptResponse,
  type PromptRound,
} from "@quad/contracts";
import { createMeUser } from "./fixtures";
import { trpcError, type TrpcResolvers } from "./trpc";

/** Fixtures and a small in-memory rounds server for the voting screens' tests. */

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
): PromptRound {
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
export function nthRound(n: number, gender: Gender = "female", skipDisabled = false): PromptRound {
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
export function previewHandler(answer: (gender: Gender) => PromptResponse | Response, calls: Gender[] = []) {
  return http.get("*/api/prompts/unauthenticated", ({ request }) => {
    const gender = new URL(request.url).searchParams.get("gender") as Gender;
    calls.push(gender);
    const result = answer(gender);
    return result instanceof Response ? result : HttpResponse.json(result);
  });
}

export interface RoundsServerOptions {
  user?: MeUser;
  votesLeft?: number;
  skipsLeft?: number;
  /** Answer `{error: "no_candidates"}` for these genders. */
  emptyFor?: Gender[];
  /** When votes come back (ISO); set to start out of votes. */
  cooldownUntil?: string | null;
  /** How long the cooldown after the last vote lasts. */
  cooldownMs?: number;
  /** Refuse every skip with 409, as when another device used them up. */
  refuseSkips?: boolean;
}

/**
 * tRPC resolvers for prompts.random, votes.store, users.me and
 * users.update that keep state like the real server: one open round per
 * voter, votes counted down to a cooldown, skips in a row reset by a vote.
 */
export function createRoundsServer(options: RoundsServerOptions = {}) {
  const state = {
    user: options.user ?? createMeUser(),
    votesLeft: options.votesLeft ?? VOTES_PER_BATCH,
    skipsLeft: options.skipsLeft ?? SKIPS_IN_A_ROW,
    cooldownUntil: options.cooldownUntil ?? null,
    served: 0,
    open: null as PromptRound | null,
    votes: [] as { userId: string; promptId: number; preference?: Gender }[],
    skips: 0,
    randomCalls: 0,
  };
  const gender = (): Gender => state.user.preference ?? (state.user.gender === "male" ? "female" : "male");

  const outOfVotes = (): PromptError => ({
    error: "out_of_votes",
    message: SCREEN_TEXT.outOfVotesBody,
    availableAt: state.cooldownUntil!,
  });

  const present = (): PromptResponse => {
    if (options.emptyFor?.includes(gender())) return { error: "no_candidates", message: SCREEN_TEXT.noStudents };
    if (!state.open || !state.open.users[0].id.startsWith(`cand-${gender()}-`)) {
      state.open = nthRound(state.served++, gender());
    }
    return { ...state.open, prompt: { ...state.open.prompt, skipDisabled: state.skipsLeft === 0 } };
  };

  const resolvers: TrpcResolvers = {
    "users.me": () => state.user,
    "users.update": ({ input }) => {
      state.user = { ...state.user, ...(input as Partial<MeUser>) };
      return { user: state.user };
    },
    "prompts.random": ({ input }) => {
      state.randomCalls++;
      if (state.cooldownUntil) return outOfVotes();
      if ((input as { skip?: boolean }).skip) {
        if (state.skipsLeft === 0 || options.refuseSkips) return trpcError("CONFLICT", SCREEN_TEXT.outOfSkipsBody);
        state.skipsLeft--;
        state.skips++;
        state.open = null;
      }
      return present();
    },
    "votes.store": ({ input }) => {
      const vote = input as { userId: string; promptId: number; preference?: Gender };
      if (state.cooldownUntil) return trpcError("TOO_MANY_REQUESTS", SCREEN_TEXT.outOfVotesBody);
      const round = state.open;
      if (!round || round.prompt.id !== vote.promptId || !round.users.some((u) => u.id === vote.userId)) {
        return trpcError("BAD_REQUEST", "That student is not part of your current round.");
      }
      state.votes.push(vote);
      state.open = null;
      state.skipsLeft = SKIPS_IN_A_ROW;
      state.votesLeft--;
      if (state.votesLeft > 0) return { disabled: false };
      state.cooldownUntil = new Date(Date.now() + (options.cooldownMs ?? VOTE_COOLDOWN_MS)).toISOString();
      return { disabled: true, availableAt: state.cooldownUntil };
    },
  };

  return { state, resolvers };
}

/**
 * votes.store refused during the cooldown exactly as the server words it:
 * 429 with the "Out of Votes" text and retryAfterSeconds in the error data.
 * Register with server.use() before the general tRPC handler.
 */
export function voteCooldownHandler(retryAfterSeconds: number) {
  return http.post("*/api/trpc/votes.store", () =>
    HttpResponse.json(
      [
        {
          error: {
            message: SCREEN_TEXT.outOfVotesBody,
            code: TRPC_ERROR_CODES_BY_KEY.TOO_MANY_REQUESTS,
            data: { code: "TOO_MANY_REQUESTS", httpStatus: 429, path: "votes.store", retryAfterSeconds },
          },
        },
      ],
      { status: 429 },
    ),
  );
}

import { z } from "zod";
import { GENDERS } from "./constants";
import { BooleanText } from "./validation";
import { INT4_MAX, IsoDateTime, MediaUrl, SerialId, SmallintYear } from "./common";
import { type EndpointDef, route } from "./endpoint";

/** A student shown in a round: public fields only (docs/product.md "What others may see"). */
export const CandidateOption = z.object({
  id: z.string(),
  profileImageUrl: MediaUrl,
  firstName: z.string(),
  graduationYear: SmallintYear,
  organizations: z.array(z.string()),
  interests: z.array(z.string()),
  /** In the product's shape, but never filled for a candidate: the UI shows a blurred placeholder. */
  instagramHandle: z.string().optional(),
});
export type CandidateOption = z.infer<typeof CandidateOption>;

export const Prompt = z.object({
  id: SerialId,
  prompt: z.string(),
  skipDisabled: z.boolean(),
});
export type Prompt = z.infer<typeof Prompt>;

export const Round = z.object({
  prompt: Prompt,
  users: z.tuple([CandidateOption, CandidateOption]),
});
export type Round = z.infer<typeof Round>;

export const ROUND_ERRORS = ["out_of_votes", "out_of_skips", "no_candidates", "no_prompts"] as const;
export const RoundError = z.object({
  error: z.enum(ROUND_ERRORS),
  message: z.string(),
  availableAt: IsoDateTime.optional(),
});
export type RoundError = z.infer<typeof RoundError>;

/** `rounds.open`, `rounds.skip` and `rounds.preview` answer a round or, when none is available, an error value (docs/product.md). */
export const RoundResponse = z.union([Round, RoundError]);
export type RoundResponse = z.infer<typeof RoundResponse>;
export function isRoundError(response: RoundResponse): response is RoundError {
  return "error" in response;
}

/** REST's `GET /prompts/random?skip=`: `skip=true` is `rounds.skip`, anything else `rounds.open`. */
export const OpenRoundQuery = z.object({ skip: BooleanText.default(false) }).strict();
export const PreviewRoundInput = z
  .object({ gender: z.enum(GENDERS, { error: "gender must be male or female" }) })
  .strict();

export const VoteInput = z
  .object({
    userId: z.uuid({ error: "Invalid student" }),
    promptId: z.coerce.number<number>().int().min(1).max(INT4_MAX),
    preference: z.enum(GENDERS).optional(),
  })
  .strict();
export const VoteResult = z.object({
  disabled: z.boolean(),
  availableAt: IsoDateTime.optional(),
});
export type VoteResult = z.infer<typeof VoteResult>;

/** The rounds procedures' rows of the endpoint table (merged in routes.ts). */
export const roundsRoutes = {
  "rounds.preview": route({
    method: "GET",
    path: "/prompts/unauthenticated",
    auth: false,
    tags: ["rounds"],
    summary: "A preview round for visitors",
    input: PreviewRoundInput,
    output: RoundResponse,
  }),
  "rounds.open": route({
    method: "GET",
    path: "/prompts/random",
    auth: true,
    tags: ["rounds"],
    summary: "The open round, or the next one (skip=true skips the open one first)",
    output: RoundResponse,
    restSwitch: { query: OpenRoundQuery, param: "skip", to: "rounds.skip" },
  }),
  "rounds.skip": route({
    writeLimit: true,
    auth: true,
    tags: ["rounds"],
    summary: "Skip the open round and open the next (REST: GET /prompts/random?skip=true)",
    output: RoundResponse,
  }),
  "rounds.vote": route({
    writeLimit: true,
    method: "POST",
    path: "/votes/store",
    auth: true,
    tags: ["rounds"],
    summary: "Vote for a candidate of the open round",
    input: VoteInput,
    output: VoteResult,
  }),
} as const satisfies Record<`rounds.${string}`, EndpointDef>;

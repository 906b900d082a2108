import { z } from "zod";
import { GENDERS } from "./constants";
import { BooleanText } from "./validation";
import { INT4_MAX, IsoDateTime, MediaUrl, SerialId, SmallintYear } from "./common";

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

import { z } from "zod";
import { VOTES_PAGE_MAX, VOTES_PAGE_SIZE } from "./constants";
import { IsoDateTime, MediaUrl } from "./common";

/**
 * A received vote. Locked cards carry nothing that identifies the voter:
 * the photo is a server-rendered blurred teaser, and there is no name,
 * year, handle or voter id (DESIGN.md "Data classes"). `id` is the vote's id.
 */
export const VoteCardLocked = z.object({
  id: z.string(),
  isUnlocked: z.literal(false),
  photo: MediaUrl,
  prompt: z.string(),
  createdAt: IsoDateTime,
});
export const VoteCardUnlocked = z.object({
  id: z.string(),
  isUnlocked: z.literal(true),
  photo: MediaUrl,
  name: z.string(),
  graduationYear: z.number().int().nullable(),
  instagramHandle: z.string().nullable(),
  emojis: z.array(z.string()),
  prompt: z.string(),
  createdAt: IsoDateTime,
});
export const VoteCard = z.discriminatedUnion("isUnlocked", [VoteCardLocked, VoteCardUnlocked]);
export type VoteCardLocked = z.infer<typeof VoteCardLocked>;
export type VoteCardUnlocked = z.infer<typeof VoteCardUnlocked>;
export type VoteCard = z.infer<typeof VoteCard>;

/** The placeholder a locked card shows where the name would be. */
export const LOCKED_NAME_PLACEHOLDER = "Someone";

export const VotesForUserInput = z
  .object({
    page: z.coerce.number<number>().int().min(1).max(100_000).default(1),
    limit: z.coerce.number<number>().int().min(1).max(VOTES_PAGE_MAX).default(VOTES_PAGE_SIZE),
    /** Opaque keyset cursor from a previous page's `nextCursor`; wins over `page`. */
    cursor: z.string().max(200).optional(),
  })
  .strict();
export const VotesPage = z.object({
  votes: z.array(VoteCard),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type VotesPage = z.infer<typeof VotesPage>;

export const UnlockUserInput = z.object({ userId: z.uuid({ error: "Invalid vote card" }) }).strict();
export const UnlockResult = z.object({
  unlockedUser: VoteCardUnlocked,
  remainingUnlocks: z.number().int().min(0),
});
export type UnlockResult = z.infer<typeof UnlockResult>;

import { z } from "zod";
import { INBOX_NEW_VOTES_MAX, INBOX_PAGE_MAX, INBOX_PAGE_SIZE } from "./constants";
import { Int4Count, IsoDateTime, MediaUrl, SmallintYear } from "./common";
import { type EndpointDef, route } from "./endpoint";

/**
 * The image of every locked card (and of a revealed voter without a photo):
 * one soft gradient, the same for everyone. A picture made from the voter's
 * photo, however blurred, can be matched against the photos a recipient
 * sees in rounds, and one per voter would link that voter's cards
 * (docs/decisions/0009-locked-cards-carry-nothing-of-the-voter.md).
 * Served by the API (apps/server/src/media/routes.ts) at a URL cached for
 * good, rather than as 437 bytes of data URI in every card of every page:
 * a new picture takes a new name.
 */
export const LOCKED_CARD_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 3 4"><defs><linearGradient id="g" x2="0" y2="1"><stop offset="0" stop-color="#c7b8f5"/><stop offset="1" stop-color="#f5b8d9"/></linearGradient></defs><rect width="3" height="4" fill="url(#g)"/></svg>';
export const LOCKED_CARD_PHOTO = "/api/media/locked-card-1.svg";

/**
 * When a card's vote reached the recipient: the start of its hour, in UTC
 * ("2026-11-27T14:00:00.000Z"), on locked and unlocked cards alike. A finer
 * time links inboxes: a friend who unlocked her card would know its exact
 * time, and whoever got a card from the same voter would pick it out by the
 * nearest time (docs/decisions/0009-locked-cards-carry-nothing-of-the-voter.md).
 * When the vote was cast is never sent.
 */
export const VoteHour = IsoDateTime.refine((iso) => /T\d{2}:00:00(\.0+)?(Z|\+00:00)$/.test(iso), {
  error: "A card's time is to the hour",
});

/**
 * A received vote. `id` is the vote's id. A locked card carries the vote's
 * id, prompt and hour and nothing computed from the voter or stable per
 * voter: no name, year, handle or voter id, and a photo that is the one
 * placeholder above for every card (pinned here, so the output check
 * refuses anything else). Its time is pinned to the hour the same way.
 */
export const VoteCardLocked = z.object({
  id: z.string(),
  isUnlocked: z.literal(false),
  photo: z.literal(LOCKED_CARD_PHOTO),
  prompt: z.string(),
  createdAt: VoteHour,
});
export const VoteCardUnlocked = z.object({
  id: z.string(),
  isUnlocked: z.literal(true),
  photo: MediaUrl,
  name: z.string(),
  graduationYear: SmallintYear.nullable(),
  instagramHandle: z.string().nullable(),
  emojis: z.array(z.string()),
  prompt: z.string(),
  createdAt: VoteHour,
});
export const VoteCard = z.discriminatedUnion("isUnlocked", [VoteCardLocked, VoteCardUnlocked]);
export type VoteCardLocked = z.infer<typeof VoteCardLocked>;
export type VoteCardUnlocked = z.infer<typeof VoteCardUnlocked>;
export type VoteCard = z.infer<typeof VoteCard>;

/** The placeholder a locked card shows where the name would be. */
export const LOCKED_NAME_PLACEHOLDER = "Someone";

export const InboxPageInput = z
  .object({
    page: z.coerce.number<number>().int().min(1).max(100_000).default(1),
    limit: z.coerce.number<number>().int().min(1).max(INBOX_PAGE_MAX).default(INBOX_PAGE_SIZE),
    /** Opaque keyset cursor from a previous page's `nextCursor`; wins over `page`. */
    cursor: z.string().max(200).optional(),
  })
  .strict();
export const InboxPage = z.object({
  votes: z.array(VoteCard),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type InboxPage = z.infer<typeof InboxPage>;

export const UnlockInput = z.object({ userId: z.uuid({ error: "Invalid vote card" }) }).strict();
export const UnlockResult = z.object({
  unlockedUser: VoteCardUnlocked,
  remainingUnlocks: Int4Count,
});
export type UnlockResult = z.infer<typeof UnlockResult>;

/**
 * How many votes arrived since the student last opened the inbox (on any
 * device), counted up to INBOX_NEW_VOTES_MAX. A number only: which cards
 * are new is never said, so it tells no more than the list itself.
 */
export const NewVotes = z.object({ count: z.number().int().min(0).max(INBOX_NEW_VOTES_MAX) });
export type NewVotes = z.infer<typeof NewVotes>;
/** Marking the inbox opened takes nothing: the server notes the time itself. */
export const MarkOpenedInput = z.object({}).strict();

/** The inbox procedures' rows of the endpoint table (merged in routes.ts). */
export const inboxRoutes = {
  "inbox.received": route({
    method: "GET",
    path: "/votes/for-user",
    auth: true,
    tags: ["inbox"],
    summary: "Votes received, newest first",
    input: InboxPageInput,
    output: InboxPage,
  }),
  "inbox.unlock": route({
    writeLimit: true,
    method: "POST",
    path: "/unlocks/unlock-user",
    auth: true,
    tags: ["inbox"],
    summary: "Spend a credit to reveal the voter behind a vote card",
    input: UnlockInput,
    output: UnlockResult,
  }),
  "inbox.newVotes": route({
    method: "GET",
    path: "/votes/new-count",
    auth: true,
    tags: ["inbox"],
    summary: "How many votes arrived since the inbox was last opened",
    output: NewVotes,
  }),
  "inbox.markOpened": route({
    writeLimit: true,
    method: "POST",
    path: "/votes/opened",
    auth: true,
    tags: ["inbox"],
    summary: "Note that the inbox was opened now: the new-votes count starts again from zero",
    input: MarkOpenedInput,
    output: NewVotes,
  }),
} as const satisfies Record<`inbox.${string}`, EndpointDef>;

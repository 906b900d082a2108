import { z } from "zod";
import { VoteCard } from "./inbox";
import { type EndpointDef, route } from "./endpoint";

/**
 * The open app's events (`live.events`, REST `GET /live/events` as
 * text/event-stream). A vote event's card is the card the inbox shows for
 * that vote, built by the same code and held to the same schema: a locked
 * card carries the vote's id, prompt and hour and nothing of the voter.
 */
export const LiveVoteEvent = z.object({ type: z.literal("vote"), card: VoteCard });
/** Votes left, skips left or the cooldown changed (a vote or skip in another tab or device): read them again. */
export const LiveStateEvent = z.object({ type: z.literal("state") });
/** The stream is open: whatever was read before it may be stale, and its id is where a resume starts. */
export const LiveReadyEvent = z.object({ type: z.literal("ready") });
export const LiveEvent = z.discriminatedUnion("type", [LiveVoteEvent, LiveStateEvent, LiveReadyEvent]);
export type LiveEvent = z.infer<typeof LiveEvent>;

/**
 * `lastEventId`: the id of the last event received (tRPC's subscription link
 * sends it on reconnect; REST clients send the `Last-Event-ID` header, which
 * wins). Opaque; the votes after it are sent again first. Delivery is at
 * least once: a card may come twice, and its `id` tells them apart.
 */
export const LiveInput = z
  .object({ lastEventId: z.string().max(200).nullish() })
  .strict()
  .optional();
export type LiveInput = z.infer<typeof LiveInput>;

/** The live procedures' rows of the endpoint table (merged in routes.ts). */
export const liveRoutes = {
  "live.events": route({
    method: "GET",
    path: "/live/events",
    auth: true,
    tags: ["live"],
    summary:
      "Events for the open app, as text/event-stream: votes received (the inbox's card), a change of votes or skips left; resumable with Last-Event-ID",
    stream: true,
    input: LiveInput,
    output: LiveEvent,
  }),
} as const satisfies Record<`live.${string}`, EndpointDef>;

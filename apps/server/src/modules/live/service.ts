import { LiveEvent, type LiveInput } from "@quad/contracts";
import { tracked, type TrackedEnvelope } from "@trpc/server";
import type { Database } from "@quad/db";
import { requireMember } from "../schools/membership";
import type { LiveHub, LiveStreamOwner } from "./hub";

/**
 * `live.events`: the stream of a student who proved membership of their
 * school (the inbox's rule; its cards travel here). Every event is parsed
 * with the contracts schema on its way out, as every answer is; the ones a
 * resume can start after are tracked with their id (the SSE `id:` field).
 */
export async function* liveEvents(
  deps: { db: Database; live: LiveHub },
  owner: LiveStreamOwner,
  input: LiveInput,
  signal: AbortSignal | undefined,
): AsyncGenerator<LiveEvent | TrackedEnvelope<LiveEvent>> {
  await requireMember(deps.db, owner.userId);
  for await (const item of deps.live.open(owner, input?.lastEventId, signal)) {
    const event = LiveEvent.parse(item.event);
    yield item.id ? tracked(item.id, event) : event;
  }
}

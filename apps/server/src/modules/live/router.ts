import { router, streamError } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { liveEvents } from "./service";

/** The open app's events: votes received, and changes of votes or skips left. */
export const liveRouter = router({
  events: endpoint("live.events", { me: true }).subscription(async function* ({ ctx, input, signal }) {
    try {
      yield* liveEvents(
        ctx,
        { userId: ctx.me, familyId: ctx.viewer.familyId, expiresAtMs: ctx.viewer.expiresAtMs },
        input,
        signal,
      );
    } catch (error) {
      throw streamError(error);
    }
  }),
});

import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { liveEvents } from "./service";

/** The open app's events: votes received, and changes of votes or skips left. */
export const liveRouter = router({
  events: endpoint("live.events", { me: true }).subscription(({ ctx, input, signal }) =>
    liveEvents(
      ctx,
      { userId: ctx.me, familyId: ctx.viewer.familyId, expiresAtMs: ctx.viewer.expiresAtMs },
      input,
      signal,
    ),
  ),
});

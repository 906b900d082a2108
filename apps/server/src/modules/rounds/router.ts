import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { enforceLimit } from "../../trpc/limits";
import { castVote, nextRound, previewRound, roundDeps } from "./service";

/** Visitors may look, within reason: the preview shows real students. */
export const PREVIEW_PER_IP = { limit: 60, windowMs: 60 * 1000 };

/** A student's rounds (open, skip, vote) and the landing's preview for visitors. */
export const roundsRouter = router({
  // A query: it answers the open round again until it is voted on or skipped.
  open: endpoint("rounds.open").query(({ ctx }) => nextRound(roundDeps(ctx), ctx.viewer.phone, { skip: false })),
  skip: endpoint("rounds.skip").mutation(({ ctx }) => nextRound(roundDeps(ctx), ctx.viewer.phone, { skip: true })),
  vote: endpoint("rounds.vote").mutation(({ ctx, input }) => castVote(roundDeps(ctx), ctx.viewer.phone, input)),
  preview: endpoint("rounds.preview").query(async ({ ctx, input }) => {
    await enforceLimit(ctx.rateLimiter, `preview:ip:${ctx.ip}`, PREVIEW_PER_IP);
    return previewRound(roundDeps(ctx), input.gender);
  }),
});

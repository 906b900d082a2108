import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { enforceLimit } from "../../trpc/limits";
import { nextRound, previewRound, roundDeps } from "../rounds/service";

/** Visitors may look, within reason: the preview shows real students. */
export const PREVIEW_PER_IP = { limit: 60, windowMs: 60 * 1000 };

/** Rounds (modules/rounds): the next one for a student, a preview for a visitor. */
export const promptsRouter = router({
  random: endpoint("prompts.random").query(({ ctx, input }) =>
    nextRound(roundDeps(ctx), ctx.viewer.phone, { skip: input.skip }),
  ),
  unauthenticated: endpoint("prompts.unauthenticated").query(async ({ ctx, input }) => {
    await enforceLimit(ctx.rateLimiter, `preview:ip:${ctx.ip}`, PREVIEW_PER_IP);
    return previewRound(roundDeps(ctx), input.gender);
  }),
});

import {
  PromptResponse,
  RandomPromptInput,
  StoreVoteInput,
  UnauthenticatedPromptInput,
  VoteResult,
} from "@quad/contracts";
import { publicProcedure, router, sessionProcedure } from "../../trpc/init";
import type { Context } from "../../trpc/context";
import { enforceLimit, enforceWriteLimits } from "../../trpc/limits";
import { castVote, nextRound, previewRound, type RoundDeps } from "./service";

const roundDeps = (ctx: Context): RoundDeps => ({
  db: ctx.db,
  pool: ctx.candidatePool,
  now: ctx.now,
  random: ctx.random,
});

/** Visitors may look, within reason: the preview shows real students. */
export const PREVIEW_PER_IP = { limit: 60, windowMs: 60 * 1000 };

export const promptsRouter = router({
  random: sessionProcedure
    .input(RandomPromptInput)
    .output(PromptResponse)
    .query(({ ctx, input }) => nextRound(roundDeps(ctx), ctx.viewer.phone, { skip: input.skip })),
  unauthenticated: publicProcedure
    .input(UnauthenticatedPromptInput)
    .output(PromptResponse)
    .query(async ({ ctx, input }) => {
      await enforceLimit(ctx.rateLimiter, `preview:ip:${ctx.ip}`, PREVIEW_PER_IP);
      return previewRound(roundDeps(ctx), input.gender);
    }),
});

export const storeVoteProcedure = sessionProcedure
  .input(StoreVoteInput)
  .output(VoteResult)
  .mutation(async ({ ctx, input }) => {
    await enforceWriteLimits(ctx.rateLimiter, { name: "votes.store", ip: ctx.ip, phone: ctx.viewer.phone });
    return castVote(roundDeps(ctx), ctx.viewer.phone, input);
  });

import { UnlockResult, UnlockUserInput, VotesForUserInput, VotesPage } from "@quad/contracts";
import { router, sessionProcedure } from "../../trpc/init";
import { enforceWriteLimits } from "../../trpc/limits";
import { votesForUser } from "./received";
import { unlockVoter } from "./unlock";

export const votesForUserProcedure = sessionProcedure
  .input(VotesForUserInput)
  .output(VotesPage)
  .query(({ ctx, input }) => votesForUser(ctx.db, ctx.viewer.phone, input));

export const unlocksRouter = router({
  unlockUser: sessionProcedure
    .input(UnlockUserInput)
    .output(UnlockResult)
    .mutation(async ({ ctx, input }) => {
      await enforceWriteLimits(ctx.rateLimiter, { name: "unlocks", ip: ctx.ip, phone: ctx.viewer.phone });
      return unlockVoter(ctx.db, ctx.viewer.phone, input.userId, ctx.now());
    }),
});

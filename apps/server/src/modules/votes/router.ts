import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { votesForUser } from "../inbox/received";
import { castVote, roundDeps } from "../rounds/service";

export const votesRouter = router({
  /** A vote for a candidate of the open round (modules/rounds/cast-vote.ts). */
  store: endpoint("votes.store", { writeLimit: true }).mutation(({ ctx, input }) =>
    castVote(roundDeps(ctx), ctx.viewer.phone, input),
  ),
  /** Votes received, newest first (modules/inbox/received.ts). */
  forUser: endpoint("votes.forUser").query(({ ctx, input }) => votesForUser(ctx.db, ctx.viewer.phone, input)),
});

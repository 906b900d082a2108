import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { markInboxOpened, newVotes } from "./new-votes";
import { receivedVotes } from "./received";
import { unlockVoter } from "./unlock";

/** The votes a student received, and unlocking who cast one. */
export const inboxRouter = router({
  received: endpoint("inbox.received").query(({ ctx, input }) =>
    receivedVotes(ctx.db, ctx.viewer.phone, input, ctx.now()),
  ),
  unlock: endpoint("inbox.unlock").mutation(({ ctx, input }) =>
    unlockVoter(ctx.db, ctx.viewer.phone, input.userId, ctx.now()),
  ),
  newVotes: endpoint("inbox.newVotes").query(({ ctx }) => newVotes(ctx.db, ctx.viewer.phone, ctx.now())),
  markOpened: endpoint("inbox.markOpened").mutation(({ ctx }) => markInboxOpened(ctx.db, ctx.viewer.phone, ctx.now())),
});

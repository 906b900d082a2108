import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { unlockVoter } from "../inbox/unlock";

export const unlocksRouter = router({
  // Counted under "unlocks", as it always was.
  unlockUser: endpoint("unlocks.unlockUser", { writeLimit: "unlocks" }).mutation(({ ctx, input }) =>
    unlockVoter(ctx.db, ctx.viewer.phone, input.userId, ctx.now()),
  ),
});

import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { blockStudent, listBlocked, reportStudent, unblockStudent } from "./service";

/** Every safety write is limited per student and per address, and acts as the caller's profile. */
const write = { me: true } as const;

export const safetyRouter = router({
  block: endpoint("safety.block", write).mutation(async ({ ctx, input }) => {
    await blockStudent(ctx.db, ctx.me, input, ctx.now());
    return { ok: true as const };
  }),
  unblock: endpoint("safety.unblock", write).mutation(async ({ ctx, input }) => {
    await unblockStudent(ctx.db, ctx.me, input.userId);
    return { ok: true as const };
  }),
  blocks: endpoint("safety.blocks", { me: true }).query(({ ctx }) => listBlocked(ctx.db, ctx.me)),
  report: endpoint("safety.report", write).mutation(async ({ ctx, input }) => {
    await reportStudent(ctx.db, ctx.candidatePool, ctx.me, input, ctx.now());
    return { ok: true as const };
  }),
});

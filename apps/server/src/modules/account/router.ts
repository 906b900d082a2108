import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { deleteAccount } from "./delete";
import { exportAccount } from "./export";
import { setPaused, setPreview } from "./service";

export const accountRouter = router({
  pause: endpoint("account.pause").mutation(({ ctx, input }) => setPaused(ctx, ctx.viewer.phone, input.paused)),
  preview: endpoint("account.preview").mutation(({ ctx, input }) =>
    setPreview(ctx, ctx.viewer.phone, input.showInPreview),
  ),
  delete: endpoint("account.delete").mutation(async ({ ctx }) => {
    const { db, media, sessionRevocations, viewer, candidatePool } = ctx;
    await deleteAccount(db, media, sessionRevocations, viewer.phone, ctx.now(), candidatePool, {
      secret: ctx.jwtSecret,
    });
    return { ok: true as const };
  }),
  export: endpoint("account.export").query(({ ctx }) => exportAccount(ctx.db, ctx.viewer.phone, ctx.now())),
});

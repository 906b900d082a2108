import { AdminTargetInput, AuditTrail, OkResult, ReviewQueue } from "@quad/contracts";
import { router, sessionProcedure } from "../../trpc/init";
import { auditTrail, removePhoto, removeProfile, requireAdmin, restoreProfile, reviewQueue } from "./service";

/** Admins only: anyone else gets NOT_FOUND, the same as a missing route. */
const adminProcedure = sessionProcedure.use(async ({ ctx, next }) => {
  const adminId = await requireAdmin(ctx.db, ctx.viewer.phone);
  return next({ ctx: { ...ctx, adminId } });
});

export const adminRouter = router({
  reviewQueue: adminProcedure.output(ReviewQueue).query(({ ctx }) => reviewQueue(ctx.db)),
  auditTrail: adminProcedure.output(AuditTrail).query(({ ctx }) => auditTrail(ctx.db)),
  restore: adminProcedure
    .input(AdminTargetInput)
    .output(OkResult)
    .mutation(async ({ ctx, input }) => {
      await restoreProfile(ctx.db, ctx.adminId, input.userId, ctx.now());
      ctx.candidatePool.invalidate();
      return { ok: true as const };
    }),
  removeProfile: adminProcedure
    .input(AdminTargetInput)
    .output(OkResult)
    .mutation(async ({ ctx, input }) => {
      await removeProfile(ctx.db, ctx.media, ctx.adminId, input.userId, ctx.now());
      ctx.candidatePool.invalidate();
      return { ok: true as const };
    }),
  removePhoto: adminProcedure
    .input(AdminTargetInput)
    .output(OkResult)
    .mutation(async ({ ctx, input }) => {
      await removePhoto(ctx.db, ctx.media, ctx.adminId, input.userId, ctx.now());
      ctx.candidatePool.invalidate();
      return { ok: true as const };
    }),
});

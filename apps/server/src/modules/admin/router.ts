import { AdminTargetInput, AuditTrail, OkResult, ReviewQueue } from "@quad/contracts";
import { router, sessionProcedure } from "../../trpc/init";
import { enforceWriteLimits } from "../../trpc/limits";
import { auditTrail, removePhoto, removeProfile, requireAdmin, restoreProfile, reviewQueue } from "./service";

/** Admins only: anyone else gets NOT_FOUND, the same as a missing route. */
const adminProcedure = sessionProcedure.use(async ({ ctx, next }) => {
  const adminId = await requireAdmin(ctx.db, ctx.viewer.phone);
  return next({ ctx: { ...ctx, adminId } });
});

/** Moderators' writes carry the same per-student and per-address limits as everyone's. */
const adminWrite = adminProcedure.use(async ({ ctx, next, path }) => {
  await enforceWriteLimits(ctx.rateLimiter, { name: path, ip: ctx.ip, phone: ctx.viewer.phone });
  return next();
});

export const adminRouter = router({
  reviewQueue: adminProcedure.output(ReviewQueue).query(({ ctx }) => reviewQueue(ctx.db)),
  auditTrail: adminProcedure.output(AuditTrail).query(({ ctx }) => auditTrail(ctx.db)),
  restore: adminWrite
    .input(AdminTargetInput)
    .output(OkResult)
    .mutation(async ({ ctx, input }) => {
      await restoreProfile(ctx.db, ctx.adminId, input.userId, ctx.now());
      ctx.candidatePool.invalidate();
      return { ok: true as const };
    }),
  removeProfile: adminWrite
    .input(AdminTargetInput)
    .output(OkResult)
    .mutation(async ({ ctx, input }) => {
      await removeProfile(ctx.db, ctx.media, ctx.sessionRevocations, ctx.adminId, input.userId, ctx.now());
      ctx.candidatePool.invalidate();
      return { ok: true as const };
    }),
  removePhoto: adminWrite
    .input(AdminTargetInput)
    .output(OkResult)
    .mutation(async ({ ctx, input }) => {
      await removePhoto(ctx.db, ctx.media, ctx.adminId, input.userId, ctx.now());
      ctx.candidatePool.invalidate();
      return { ok: true as const };
    }),
});

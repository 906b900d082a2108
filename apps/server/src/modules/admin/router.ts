import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { auditTrail, removePhoto, removeProfile, restoreProfile, reviewQueue } from "./service";

/**
 * Admins only (`auth: "moderator"` in the contracts table): anyone else gets NOT_FOUND, the same
 * as a missing route. Moderators' writes carry the same per-student and per-address limits as everyone's.
 */

export const adminRouter = router({
  reviewQueue: endpoint("admin.reviewQueue").query(({ ctx }) => reviewQueue(ctx.db)),
  auditTrail: endpoint("admin.auditTrail").query(({ ctx }) => auditTrail(ctx.db)),
  restore: endpoint("admin.restore").mutation(async ({ ctx, input }) => {
    await restoreProfile(ctx.db, ctx.candidatePool, ctx.adminId, input.userId, ctx.now());
    return { ok: true as const };
  }),
  removeProfile: endpoint("admin.removeProfile").mutation(async ({ ctx, input }) => {
    await removeProfile(
      ctx.db,
      ctx.candidatePool,
      ctx.media,
      ctx.sessionRevocations,
      ctx.adminId,
      input.userId,
      ctx.now(),
    );
    return { ok: true as const };
  }),
  removePhoto: endpoint("admin.removePhoto").mutation(async ({ ctx, input }) => {
    await removePhoto(ctx.db, ctx.candidatePool, ctx.media, ctx.adminId, input.userId, ctx.now());
    return { ok: true as const };
  }),
});

import { ERROR_MESSAGES } from "@quad/contracts";
import { users } from "@quad/db/schema";
import { and, eq, isNull } from "drizzle-orm";
import { AppError } from "../../errors";
import { router } from "../../trpc/init";
import { endpoint } from "../../trpc/endpoints";
import { getMe } from "../users/profile";
import { deleteAccount } from "./delete";
import { exportAccount } from "./export";

export const accountRouter = router({
  setPaused: endpoint("account.setPaused", { writeLimit: true }).mutation(async ({ ctx, input }) => {
    const now = ctx.now();
    const [row] = await ctx.db
      .update(users)
      .set({ pausedAt: input.paused ? now : null, updatedAt: now })
      // A profile held for review stays paused until a moderator restores it.
      .where(and(eq(users.phone, ctx.viewer.phone), input.paused ? undefined : isNull(users.heldForReviewAt)))
      .returning({ schoolId: users.schoolId });
    if (!row) {
      await getMe(ctx.db, ctx.viewer.phone);
      throw new AppError("FORBIDDEN", ERROR_MESSAGES.heldForReview);
    }
    ctx.candidatePool.invalidate(row.schoolId ?? undefined);
    return getMe(ctx.db, ctx.viewer.phone);
  }),
  setPreview: endpoint("account.setPreview", { writeLimit: true }).mutation(async ({ ctx, input }) => {
    const [row] = await ctx.db
      .update(users)
      .set({ showInPreview: input.showInPreview, updatedAt: ctx.now() })
      .where(eq(users.phone, ctx.viewer.phone))
      .returning({ id: users.id });
    if (!row) await getMe(ctx.db, ctx.viewer.phone);
    ctx.candidatePool.invalidate();
    return getMe(ctx.db, ctx.viewer.phone);
  }),
  delete: endpoint("account.delete", { writeLimit: true }).mutation(async ({ ctx }) => {
    await deleteAccount(ctx.db, ctx.media, ctx.sessionRevocations, ctx.viewer.phone, ctx.now());
    ctx.candidatePool.invalidate();
    return { ok: true as const };
  }),
  export: endpoint("account.export").query(({ ctx }) => exportAccount(ctx.db, ctx.viewer.phone, ctx.now())),
});

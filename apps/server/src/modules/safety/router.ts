import { BlockedStudents, BlockInput, OkResult, ReportInput, UnblockInput } from "@quad/contracts";
import { router, sessionProcedure } from "../../trpc/init";
import { enforceWriteLimits } from "../../trpc/limits";
import { userIdByPhone } from "../inbox/received";
import { blockStudent, listBlocked, reportStudent, unblockStudent } from "./service";

/** Every safety write is limited per student and per address, and acts as the caller's profile. */
const safetyWrite = sessionProcedure.use(async ({ ctx, next, path }) => {
  await enforceWriteLimits(ctx.rateLimiter, { name: path, ip: ctx.ip, phone: ctx.viewer.phone });
  return next({ ctx: { ...ctx, me: await userIdByPhone(ctx.db, ctx.viewer.phone) } });
});

export const safetyRouter = router({
  block: safetyWrite
    .input(BlockInput)
    .output(OkResult)
    .mutation(async ({ ctx, input }) => {
      await blockStudent(ctx.db, ctx.me, input, ctx.now());
      return { ok: true as const };
    }),
  unblock: safetyWrite
    .input(UnblockInput)
    .output(OkResult)
    .mutation(async ({ ctx, input }) => {
      await unblockStudent(ctx.db, ctx.me, input.userId);
      return { ok: true as const };
    }),
  blocks: sessionProcedure
    .output(BlockedStudents)
    .query(async ({ ctx }) => listBlocked(ctx.db, await userIdByPhone(ctx.db, ctx.viewer.phone))),
  report: safetyWrite
    .input(ReportInput)
    .output(OkResult)
    .mutation(async ({ ctx, input }) => {
      const { held } = await reportStudent(ctx.db, ctx.me, input, ctx.now());
      if (held) ctx.candidatePool.invalidate();
      return { ok: true as const };
    }),
});

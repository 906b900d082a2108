import { MeUser, SendSchoolEmailCodeInput, SendSchoolEmailCodeResult, VerifySchoolEmailInput } from "@quad/contracts";
import type { Context } from "../../trpc/context";
import { router, sessionProcedure } from "../../trpc/init";
import { enforceWriteLimits } from "../../trpc/limits";
import { getMe } from "../users/profile";
import { proveSchoolEmail, sendSchoolEmailCode, type SchoolEmailDeps } from "./codes";

const deps = (ctx: Context): SchoolEmailDeps => ({ db: ctx.db, email: ctx.email, now: ctx.now, secret: ctx.jwtSecret, generateCode: ctx.generateCode });

/** Proving membership of the student's school with an e-mailed code (docs/product.md "School e-mail"). */
export const schoolEmailRouter = router({
  sendCode: sessionProcedure
    .input(SendSchoolEmailCodeInput)
    .output(SendSchoolEmailCodeResult)
    .mutation(async ({ ctx, input }) => {
      await enforceWriteLimits(ctx.rateLimiter, { name: "schoolEmail.sendCode", ip: ctx.ip, phone: ctx.viewer.phone });
      const { retryAfterSeconds } = await sendSchoolEmailCode(deps(ctx), ctx.viewer.phone, input.email);
      return { sent: true as const, retryAfterSeconds };
    }),
  verify: sessionProcedure
    .input(VerifySchoolEmailInput)
    .output(MeUser)
    .mutation(async ({ ctx, input }) => {
      await enforceWriteLimits(ctx.rateLimiter, { name: "schoolEmail.verify", ip: ctx.ip, phone: ctx.viewer.phone });
      const { schoolId } = await proveSchoolEmail(deps(ctx), ctx.viewer.phone, input.email, input.code);
      // The student may be drawn now.
      ctx.candidatePool.invalidate(schoolId);
      return getMe(ctx.db, ctx.viewer.phone);
    }),
});

import { SCHOOL_EMAIL_CODE, SCHOOL_EMAIL_MESSAGES } from "@quad/contracts";
import { AppError } from "../../errors";
import type { Context } from "../../trpc/context";
import { endpoint } from "../../trpc/endpoints";
import { router } from "../../trpc/init";
import type { RateLimiter } from "../../rate-limit/limiter";
import { getMe } from "../users/profile";
import { proveSchoolEmail, sendSchoolEmailCode, type SchoolEmailDeps } from "./codes";

const deps = (ctx: Context): SchoolEmailDeps => ({
  db: ctx.db,
  candidatePool: ctx.candidatePool,
  email: ctx.email,
  now: ctx.now,
  secret: ctx.jwtSecret,
  generateCode: ctx.generateCode,
});

/**
 * A phone's day of sends or checks, counted in the rate limiter (keyed by phone, like the write
 * limits) rather than from the account's codes, so it outlives an account deleted and made again.
 */
async function perPhonePerDay(
  limiter: RateLimiter,
  key: string,
  limit: number,
  refusal: (retryAfterSeconds: number) => string,
) {
  const decision = await limiter.consume(key, limit, SCHOOL_EMAIL_CODE.windowMs);
  if (decision.allowed) return;
  const retryAfterSeconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  throw new AppError("TOO_MANY_REQUESTS", refusal(retryAfterSeconds), { retryAfterSeconds });
}

/** Proving membership of the student's school with an e-mailed code (docs/product.md "School e-mail"). */
export const schoolEmailRouter = router({
  sendCode: endpoint("schoolEmail.sendCode").mutation(async ({ ctx, input }) => {
    await perPhonePerDay(
      ctx.rateLimiter,
      `schoolEmail.sendCode:day:${ctx.viewer.phone}`,
      SCHOOL_EMAIL_CODE.maxSendRequestsPerPhonePerDay,
      () => SCHOOL_EMAIL_MESSAGES.tooManyForStudent,
    );
    const { retryAfterSeconds } = await sendSchoolEmailCode(deps(ctx), ctx.viewer.phone, input.email);
    return { sent: true as const, retryAfterSeconds };
  }),
  verify: endpoint("schoolEmail.verify").mutation(async ({ ctx, input }) => {
    await perPhonePerDay(
      ctx.rateLimiter,
      `schoolEmail.verify:day:${ctx.viewer.phone}`,
      SCHOOL_EMAIL_CODE.maxCheckRequestsPerPhonePerDay,
      (wait) => SCHOOL_EMAIL_MESSAGES.lockedOut(Math.ceil(wait / 3600)),
    );
    await proveSchoolEmail(deps(ctx), ctx.viewer.phone, input.email, input.code);
    return getMe(ctx.db, ctx.viewer.phone);
  }),
});

import { AppError } from "../errors";
import { ERROR_MESSAGES } from "@quad/contracts";
import type { RateLimiter, RateLimitRule } from "../rate-limit/limiter";

/**
 * Write limits, counted per procedure (or shared bucket). Every call counts,
 * including each call inside a tRPC batch, because this runs per procedure call.
 *
 * Signed in, the student is who is limited (`perStudent`). The address gets
 * only a backstop (`perAddress`) far above what a campus sends: a campus
 * behind one NAT address is a thousand students, each allowed 12 votes an
 * hour, and all of them spending the allowance in the same minute is 12,000
 * votes an hour, or a few thousand in its busiest minute. Signed out, the
 * same backstop: one student must not be able to spend a campus's refreshes
 * or sign-ins, and the routes that name a phone or a code limit that phone
 * and requester themselves (modules/auth/code-limits.ts).
 */
export const WRITE_LIMITS = {
  perStudent: { limit: 120, windowMs: 60 * 1000 },
  perAddress: { limit: 10_000, windowMs: 60 * 1000 },
} as const satisfies Record<string, RateLimitRule>;

export async function enforceLimit(limiter: RateLimiter, key: string, rule: RateLimitRule): Promise<void> {
  const decision = await limiter.consume(key, rule.limit, rule.windowMs);
  if (!decision.allowed) {
    throw new AppError("TOO_MANY_REQUESTS", ERROR_MESSAGES.tooManyRequests, {
      retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
    });
  }
}

/**
 * The write limits of one call: the signed-in student's first (a student
 * refused here spends nothing of the address's backstop), then the address.
 */
export async function enforceWriteLimits(limiter: RateLimiter, opts: { name: string; ip: string; phone?: string }) {
  if (opts.phone) await enforceLimit(limiter, `${opts.name}:phone:${opts.phone}`, WRITE_LIMITS.perStudent);
  await enforceLimit(limiter, `${opts.name}:ip:${opts.ip}`, WRITE_LIMITS.perAddress);
}

import { AppError } from "../errors";
import { ERROR_MESSAGES } from "@quad/contracts";
import type { RateLimiter, RateLimitRule } from "../rate-limit/limiter";

/**
 * Write limits per student and per address. Every call counts, including
 * each call inside a tRPC batch, because this runs per procedure call.
 */
export const WRITE_LIMITS = {
  perStudent: { limit: 120, windowMs: 60 * 1000 },
  perIp: { limit: 600, windowMs: 60 * 1000 },
} as const satisfies Record<string, RateLimitRule>;

export async function enforceLimit(limiter: RateLimiter, key: string, rule: RateLimitRule): Promise<void> {
  const decision = await limiter.consume(key, rule.limit, rule.windowMs);
  if (!decision.allowed) {
    throw new AppError("TOO_MANY_REQUESTS", ERROR_MESSAGES.tooManyRequests, {
      retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
    });
  }
}

export async function enforceWriteLimits(limiter: RateLimiter, opts: { name: string; ip: string; phone?: string }) {
  await enforceLimit(limiter, `${opts.name}:ip:${opts.ip}`, WRITE_LIMITS.perIp);
  if (opts.phone) await enforceLimit(limiter, `${opts.name}:phone:${opts.phone}`, WRITE_LIMITS.perStudent);
}

import { SIGN_IN_MESSAGES } from "@quad/contracts";
import { AppError } from "../../errors";
import { smsBudget, smsTexts } from "../../metrics/registry";
import type { RateLimiter } from "../../rate-limit/limiter";

const HOUR_MS = 60 * 60 * 1000;
const BUDGET_KEY = "sms-budget";

/** Where the budget's spending is logged; the request logger fits. */
export interface BudgetLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * Takes one text from the app's hourly SMS budget, or refuses with 429. The
 * count lives in the rate limiter, so with Redis every process shares it
 * (otherwise each process has its own). The first refusal of a window is
 * logged once, as a warning: either the app is busier than the budget or
 * someone is pumping texts.
 */
export async function spendSmsBudget(limiter: RateLimiter, perHour: number, log: BudgetLog): Promise<void> {
  const decision = await limiter.consume(BUDGET_KEY, perHour, HOUR_MS);
  smsBudget.perHour.set(perHour);
  smsBudget.used.set(Math.min(decision.used, perHour));
  if (decision.allowed) return;
  smsTexts.inc({ kind: "code", outcome: "refused" });
  const windowLeftMs = Math.max(1, decision.retryAfterMs);
  // A counter of its own, lasting as long as the spent window: exactly one warning per window.
  const firstRefusal = await limiter.consume("sms-budget:warned", 1, windowLeftMs);
  if (firstRefusal.allowed) {
    log.warn(
      { budgetPerHour: perHour, resetsInSeconds: Math.ceil(windowLeftMs / 1000) },
      "hourly SMS budget reached: sign-in codes are refused until it resets",
    );
  }
  throw new AppError("TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.smsBudgetSpent, {
    retryAfterSeconds: Math.max(1, Math.ceil(windowLeftMs / 1000)),
  });
}

/** Gives back a text spent on a code that was not stored or not sent (a full disk, a refused send). */
export async function releaseSmsBudget(limiter: RateLimiter): Promise<void> {
  await limiter.release(BUDGET_KEY);
  smsBudget.used.dec();
}

import type { RateLimiter } from "../rate-limit/limiter";
import { rateLimitRefusals } from "./registry";

/** Second parts of a limiter key that name the kind of limit, not whom it counts (a phone, an address). */
const KINDS = new Set(["phone", "ip", "day", "warned"]);

/** The limit a key counts under, without the phone or address in it: "rounds.vote:phone", "preview:ip". */
export function limitNameOf(key: string): string {
  const [name = "", kind] = key.split(":");
  return kind !== undefined && KINDS.has(kind) ? `${name}:${kind}` : name;
}

/** The same limiter, counting each refusal under its limit's name. */
export function countingRefusals(limiter: RateLimiter): RateLimiter {
  return {
    async consume(key, limit, windowMs) {
      const decision = await limiter.consume(key, limit, windowMs);
      if (!decision.allowed) rateLimitRefusals.inc({ limit: limitNameOf(key) });
      return decision;
    },
    release: (key) => limiter.release(key),
    close: () => limiter.close(),
  };
}

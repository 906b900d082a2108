/**
 * Fixed-window counters for abuse limits (per IP, per student). One
 * interface, two stores: in-process for a single server (below, on the clock
 * it is given), Redis when several processes must share the count
 * (redis-limiter.ts, on rate-limiter-flexible).
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** How long until the window resets; 0 when allowed. */
  retryAfterMs: number;
  /** What the window has counted, this one included (past the limit when refused). */
  used: number;
}

export interface RateLimiter {
  consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /** Gives back one count taken in the key's current window: what a later check refused did not use. */
  release(key: string): Promise<void>;
  close(): Promise<void>;
}

/** A limit as the services name it: how many per how long. */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();
  return {
    async consume(key, limit, windowMs) {
      const t = now();
      // Forget finished windows now and then so the map cannot grow without bound.
      if (t - lastSweep > 60_000) {
        for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
        lastSweep = t;
      }
      let window = windows.get(key);
      if (!window || window.resetAt <= t) {
        window = { count: 0, resetAt: t + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return window.count <= limit
        ? { allowed: true, retryAfterMs: 0, used: window.count }
        : { allowed: false, retryAfterMs: window.resetAt - t, used: window.count };
    },
    async release(key) {
      const window = windows.get(key);
      if (window && window.resetAt > now() && window.count > 0) window.count -= 1;
    },
    async close() {
      windows.clear();
    },
  };
}

import { Redis } from "ioredis";
import type { RateLimiter } from "./limiter";

// INCR and set the expiry on the first hit, atomically; answer count and ttl.
const CONSUME = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/** Counters shared by every server process through one Redis. */
export function createRedisRateLimiter(url: string, prefix = "quad:rl:"): RateLimiter {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  return {
    async consume(key, limit, windowMs) {
      const [count, ttl] = (await redis.eval(CONSUME, 1, prefix + key, String(windowMs))) as [number, number];
      return count <= limit ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: ttl };
    },
    async close() {
      await redis.quit();
    },
  };
}

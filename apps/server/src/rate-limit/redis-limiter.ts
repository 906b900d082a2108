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

type ConsumingRedis = Redis & { quadConsume(key: string, windowMs: string): Promise<[number, number]> };

/** Counters shared by every server process through one Redis. */
export function createRedisRateLimiter(url: string, prefix = "quad:rl:"): RateLimiter {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false }) as ConsumingRedis;
  // A defined command runs by EVALSHA (the script is sent once, not with every request).
  redis.defineCommand("quadConsume", { numberOfKeys: 1, lua: CONSUME });
  return {
    async consume(key, limit, windowMs) {
      const [count, ttl] = await redis.quadConsume(prefix + key, String(windowMs));
      return count <= limit ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: ttl };
    },
    async close() {
      await redis.quit();
    },
  };
}

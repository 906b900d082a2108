import { Redis } from "ioredis";
import { createMemoryRateLimiter, type RateLimiter } from "./limiter";
import { limiterFallback } from "../metrics/registry";

// INCR and set the expiry on the first hit, atomically; answer count and ttl.
const CONSUME = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

/** Only a live count goes down: a finished window is not brought back as a negative one. */
const RELEASE = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

type ConsumingRedis = Redis & {
  quadConsume(key: string, windowMs: string): Promise<[number, number]>;
  quadRelease(key: string): Promise<number>;
};

/** Where the limiter says that Redis went away or came back; the app's logger fits. */
export interface LimiterLog {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

export interface RedisRateLimiterOptions {
  /** Put before every key, so several apps (or tests) can share one Redis. */
  prefix: string;
  /** A command Redis has not answered by then counts as Redis being away. */
  commandTimeoutMs: number;
  log: LimiterLog;
}

/**
 * Counters shared by every server process through one Redis. While Redis is
 * away (refusing, or connected but silent), each process counts for itself
 * in memory: limits become per process for a while, which is better than
 * refusing every sign-in and vote. The switch each way is logged once.
 */
export function createRedisRateLimiter(
  url: string,
  options: RedisRateLimiterOptions,
): RateLimiter & { isShared(): boolean } {
  const { prefix, commandTimeoutMs, log } = options;
  const redis = new Redis(url, {
    // Fail a command at once while disconnected, and give up on a silent server quickly.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(commandTimeoutMs, 1000),
    // Keep trying to reconnect, at most every 2 s, for as long as the process lives.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  }) as ConsumingRedis;
  // A defined command runs by EVALSHA (the script is sent once, not with every request).
  redis.defineCommand("quadConsume", { numberOfKeys: 1, lua: CONSUME });
  redis.defineCommand("quadRelease", { numberOfKeys: 1, lua: RELEASE });
  const local = createMemoryRateLimiter();
  let shared = true;
  let closing = false;

  const fallBack = (reason: string) => {
    if (!shared || closing) return;
    shared = false;
    limiterFallback.set(1);
    log.warn({ reason }, "Redis is unavailable: rate limits are counted per process until it returns");
  };
  // Without a listener, ioredis reports every failed reconnect as an unhandled error.
  redis.on("error", (error: Error) => fallBack(error.message));
  redis.on("close", () => fallBack("connection closed"));
  redis.on("ready", () => {
    if (shared) return;
    shared = true;
    limiterFallback.set(0);
    log.info({}, "Redis is back: rate limits are shared again");
  });

  return {
    /** Whether counts go to Redis right now (rather than this process's memory). */
    isShared: () => redis.status === "ready",
    async consume(key, limit, windowMs) {
      if (redis.status === "ready") {
        try {
          const [count, ttl] = await redis.quadConsume(prefix + key, String(windowMs));
          return count <= limit ? { allowed: true, retryAfterMs: 0 } : { allowed: false, retryAfterMs: ttl };
        } catch (error) {
          fallBack(error instanceof Error ? error.message : String(error));
          // A silent server: drop the connection so the next request doesn't wait on it too.
          if (redis.status === "ready") redis.disconnect(true);
        }
      } else {
        fallBack(`connection ${redis.status}`);
      }
      return local.consume(key, limit, windowMs);
    },
    async release(key) {
      if (redis.status === "ready") {
        try {
          await redis.quadRelease(prefix + key);
          return;
        } catch (error) {
          fallBack(error instanceof Error ? error.message : String(error));
        }
      }
      await local.release(key);
    },
    async close() {
      closing = true;
      await local.close();
      redis.disconnect();
    },
  };
}

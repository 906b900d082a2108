import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from "rate-limiter-flexible";
import type { RateLimiter } from "./limiter";
import { limiterFallback } from "../metrics/registry";

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
 * rate-limiter-flexible fixes a limiter's points when it is made, while the
 * app names the limit with each call (and `release` names none): one limiter
 * with a ceiling no key reaches holds every key, and the call's own limit is
 * compared with the count it answers.
 */
const NO_CEILING = Number.MAX_SAFE_INTEGER;

/** Its windows are whole seconds; a remainder shorter than one still gets one. */
const windowSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Counters shared by every server process through one Redis
 * (rate-limiter-flexible's RateLimiterRedis: one atomic script per count).
 * While Redis is away (refusing, or connected but silent), its in-memory
 * insurance limiter counts for this process: limits become per process for
 * a while, which is better than refusing every sign-in and vote. The switch
 * each way is logged once.
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
  });
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

  /** The library turns to its insurance without saying why; this is where we hear it. */
  const insured = () => {
    if (redis.status !== "ready") {
      if (shared) fallBack(`connection ${redis.status}`);
      return;
    }
    fallBack("a command failed or was not answered in time");
    // A silent server: drop the connection so the next request doesn't wait on it too.
    redis.disconnect(true);
  };
  type Options = { [key: string]: unknown };
  class Insurance extends RateLimiterMemory {
    override consume(key: string | number, points?: number, opts?: Options): Promise<RateLimiterRes> {
      insured();
      return super.consume(key, points, opts);
    }
    override get(key: string | number, opts?: Options): Promise<RateLimiterRes | null> {
      insured();
      return super.get(key, opts);
    }
    override reward(key: string | number, points?: number, opts?: Options): Promise<RateLimiterRes> {
      insured();
      return super.reward(key, points, opts);
    }
  }

  // The prefix is put on by us (keyPrefix ""), so the keys are `prefix + key` as they always were.
  const insurance = new Insurance({ keyPrefix: "", points: NO_CEILING, duration: 60 });
  const inRedis = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: "",
    points: NO_CEILING,
    duration: 60,
    // Not ready (connecting, reconnecting): to the insurance without sending anything.
    rejectIfRedisNotReady: true,
    insuranceLimiter: insurance,
  });
  /**
   * Not ready, the insurance is asked directly: the library would get there too, but
   * through an Error built for every call, which made a count in memory about ten
   * times slower (docs/decisions/0029-maintained-rate-limiter-and-twilio-signature.md).
   */
  const counts = () => (redis.status === "ready" ? inRedis : insurance);

  return {
    /** Whether counts go to Redis right now (rather than this process's memory). */
    isShared: () => redis.status === "ready",
    async consume(key, limit, windowMs) {
      const count = await counts().consume(prefix + key, 1, { customDuration: windowSeconds(windowMs) });
      return count.consumedPoints <= limit
        ? { allowed: true, retryAfterMs: 0, used: count.consumedPoints }
        : { allowed: false, retryAfterMs: count.msBeforeNext, used: count.consumedPoints };
    },
    async release(key) {
      // Only a live count goes down: a key never counted, or a finished window, is not made a negative one.
      const current = await counts().get(prefix + key);
      if (!current || current.consumedPoints <= 0 || current.msBeforeNext <= 0) return;
      await counts().reward(prefix + key, 1, { customDuration: windowSeconds(current.msBeforeNext) });
    },
    async close() {
      closing = true;
      redis.disconnect();
    },
  };
}

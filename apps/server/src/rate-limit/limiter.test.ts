import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createMemoryRateLimiter, type RateLimiter } from "./limiter";
import { createRedisRateLimiter } from "./redis-limiter";

async function exerciseWindow(limiter: RateLimiter, key: string) {
  for (let i = 0; i < 3; i++) expect((await limiter.consume(key, 3, 60_000)).allowed).toBe(true);
  const refused = await limiter.consume(key, 3, 60_000);
  expect(refused.allowed).toBe(false);
  expect(refused.retryAfterMs).toBeGreaterThan(0);
  expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
  // Other keys have their own count.
  expect((await limiter.consume(`${key}:other`, 3, 60_000)).allowed).toBe(true);
}

/** A count given back is taken again; a key never counted stays at nothing (no negative count). */
async function exerciseRelease(limiter: RateLimiter, key: string) {
  await limiter.release(`${key}:never`);
  expect((await limiter.consume(`${key}:never`, 1, 60_000)).allowed).toBe(true);
  expect((await limiter.consume(`${key}:never`, 1, 60_000)).allowed).toBe(false);
  expect((await limiter.consume(key, 2, 60_000)).allowed).toBe(true);
  expect((await limiter.consume(key, 2, 60_000)).allowed).toBe(true);
  await limiter.release(key);
  expect((await limiter.consume(key, 2, 60_000)).allowed).toBe(true);
  expect((await limiter.consume(key, 2, 60_000)).allowed).toBe(false);
}

describe("in-process rate limiter", () => {
  it("allows the limit, refuses the next with the time left, and resets after the window", async () => {
    let clock = 1_000_000;
    const limiter = createMemoryRateLimiter(() => clock);
    await exerciseWindow(limiter, "ip:1");
    clock += 30_000;
    expect((await limiter.consume("ip:1", 3, 60_000)).retryAfterMs).toBe(30_000);
    clock += 30_001;
    expect((await limiter.consume("ip:1", 3, 60_000)).allowed).toBe(true);
  });

  it("gives back a count within the window, never below nothing", async () => {
    await exerciseRelease(createMemoryRateLimiter(), "ip:2");
  });
});

describe("Redis rate limiter (the machine's Redis on 127.0.0.1:6379)", () => {
  it("counts across two clients as if they were two server processes", async () => {
    const url = "redis://127.0.0.1:6379";
    const options = { prefix: "quad:test:rl:", commandTimeoutMs: 500, log: { warn: () => {}, info: () => {} } };
    const a = createRedisRateLimiter(url, options);
    const b = createRedisRateLimiter(url, options);
    const key = `test:${randomUUID()}`;
    try {
      // Until connected, each counts for itself (as while Redis is away).
      while (!a.isShared() || !b.isShared()) await new Promise((r) => setTimeout(r, 20));
      expect((await a.consume(key, 2, 60_000)).allowed).toBe(true);
      expect((await b.consume(key, 2, 60_000)).allowed).toBe(true);
      const third = await a.consume(key, 2, 60_000);
      expect(third.allowed).toBe(false);
      expect(third.retryAfterMs).toBeGreaterThan(0);
      await exerciseWindow(b, `${key}:w`);
      await exerciseRelease(a, `${key}:r`);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

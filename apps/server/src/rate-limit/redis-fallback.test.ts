import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp } from "../test/app";
import { testPhone } from "../test/auth";
import { freePort, stopProcess } from "../test/processes";
import { createRedisRateLimiter, type LimiterLog } from "./redis-limiter";
import { limiterFallback } from "../metrics/registry";

/** A request while Redis is away must be answered well within this. */
const PROMPT_MS = 1000;
const COMMAND_TIMEOUT_MS = 200;

function recordingLog() {
  const lines: { level: "warn" | "info"; message: string }[] = [];
  const log: LimiterLog = {
    warn: (_details, message) => lines.push({ level: "warn", message }),
    info: (_details, message) => lines.push({ level: "info", message }),
  };
  return { log, lines };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function limiterAt(port: number, log: LimiterLog, prefix = `test:${randomUUID()}:`) {
  const limiter = createRedisRateLimiter(`redis://127.0.0.1:${port}`, {
    prefix,
    commandTimeoutMs: COMMAND_TIMEOUT_MS,
    log,
  });
  cleanups.push(() => limiter.close());
  return limiter;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** A server that takes connections and never says a word: a hung Redis. */
async function silentServer(): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return port;
}

/** A Redis of the test's own, so stopping it touches nothing else on the machine. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  cleanups.push(() => stopProcess(child));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const up = await new Promise<boolean>((resolve) => {
      const probe = createServer().on("error", () => resolve(true));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(false)));
    });
    if (up) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server on ${port} did not start`);
}

const waitFor = async (condition: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("rate limits while Redis is away", () => {
  it("counts in process, promptly, when Redis refuses connections, and says so once", async () => {
    const { log, lines } = recordingLog();
    const limiter = limiterAt(await freePort(), log);
    for (let i = 0; i < 3; i++) {
      const { value, ms } = await timed(() => limiter.consume("ip:1", 3, 60_000));
      expect(value.allowed).toBe(true);
      expect(ms).toBeLessThan(PROMPT_MS);
    }
    // The in-process count still enforces the limit.
    expect((await limiter.consume("ip:1", 3, 60_000)).allowed).toBe(false);
    for (let i = 0; i < 20; i++) await limiter.consume(`ip:${i + 2}`, 3, 60_000);
    expect(lines.filter((l) => l.level === "warn")).toHaveLength(1);
  });

  it("does not hang on a Redis that accepts connections but never answers", async () => {
    const { log, lines } = recordingLog();
    const limiter = limiterAt(await silentServer(), log);
    for (let i = 0; i < 5; i++) {
      const { value, ms } = await timed(() => limiter.consume("student:1", 10, 60_000));
      expect(value.allowed).toBe(true);
      expect(ms).toBeLessThan(PROMPT_MS);
    }
    expect(lines.filter((l) => l.level === "warn")).toHaveLength(1);
  });

  it("shares the counts again once Redis returns", async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const { log, lines } = recordingLog();
    const prefix = `test:${randomUUID()}:`;
    const a = limiterAt(port, log, prefix);
    const b = limiterAt(port, recordingLog().log, prefix);
    await waitFor(() => a.isShared() && b.isShared());
    // Shared: two processes' hits add up.
    expect((await a.consume("k1", 2, 60_000)).allowed).toBe(true);
    expect((await b.consume("k1", 2, 60_000)).allowed).toBe(true);
    expect((await a.consume("k1", 2, 60_000)).allowed).toBe(false);

    await stopProcess(redis);
    await waitFor(() => lines.some((l) => l.level === "warn"));
    // The metric the "Redis fallback active" alert watches.
    expect((await limiterFallback.get()).values[0]?.value).toBe(1);
    // Away: each counts for itself, and nobody waits.
    const { value, ms } = await timed(() => a.consume("k2", 1, 60_000));
    expect(value.allowed).toBe(true);
    expect(ms).toBeLessThan(PROMPT_MS);
    expect((await b.consume("k2", 1, 60_000)).allowed).toBe(true);

    await startRedis(port);
    await waitFor(() => lines.some((l) => l.level === "info") && a.isShared() && b.isShared());
    expect((await a.consume("k3", 1, 60_000)).allowed).toBe(true);
    expect((await b.consume("k3", 1, 60_000)).allowed).toBe(false);
    expect(lines.map((l) => l.level)).toEqual(["warn", "info"]);
    expect((await limiterFallback.get()).values[0]?.value).toBe(0);
  }, 30_000);

  it("counts in process when a Redis it is connected to stops answering, and shares again when it answers", async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    // Runs before the stop above (cleanups run last first): a stopped process would not hear SIGTERM.
    cleanups.push(async () => redis.kill("SIGCONT"));
    const { log, lines } = recordingLog();
    const limiter = limiterAt(port, log);
    await waitFor(() => limiter.isShared());
    expect((await limiter.consume("k1", 1, 60_000)).allowed).toBe(true);

    redis.kill("SIGSTOP");
    // Connected, and silent: the command times out and this process counts for itself.
    const first = await timed(() => limiter.consume("k1", 1, 60_000));
    expect(first.value.allowed).toBe(true);
    expect(first.ms).toBeLessThan(PROMPT_MS);
    expect(lines.map((l) => l.level)).toEqual(["warn"]);
    expect((await limiterFallback.get()).values[0]?.value).toBe(1);
    // The connection was dropped: the next request does not wait on it, and the in-process count holds.
    const second = await timed(() => limiter.consume("k1", 1, 60_000));
    expect(second.value.allowed).toBe(false);
    expect(second.ms).toBeLessThan(PROMPT_MS);

    redis.kill("SIGCONT");
    await waitFor(() => limiter.isShared() && lines.some((l) => l.level === "info"));
    // Redis kept the first count.
    expect((await limiter.consume("k1", 1, 60_000)).allowed).toBe(false);
    expect(lines.map((l) => l.level)).toEqual(["warn", "info"]);
    expect((await limiterFallback.get()).values[0]?.value).toBe(0);
  }, 30_000);

  it("keeps sign-in working over HTTP with Redis down: no 500, no hang", async () => {
    const { log } = recordingLog();
    const t = await createTestApp({ rateLimiter: limiterAt(await freePort(), log) });
    cleanups.push(() => t.close());
    const { value: res, ms } = await timed(() =>
      t.app.inject({
        method: "POST",
        url: "/api/auth/send-code",
        payload: { phone: testPhone() },
        remoteAddress: "10.9.9.9",
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(ms).toBeLessThan(PROMPT_MS * 2);
  });
});

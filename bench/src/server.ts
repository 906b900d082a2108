import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, statSync, readdirSync } from "node:fs";
import path from "node:path";
import { DEFAULT_POOL_SIZE } from "@quad/db";
import { freePort } from "@quad/server/test/processes";
import { sampleCpu, type CpuSample } from "./cpu";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
/** The app plus the bench's ceiling routes (serve.ts), bundled as the server's build bundles the app. */
const SERVER_BUNDLE = path.join(REPO_ROOT, "bench/dist/bin/server.mjs");
const LOG_DIR = path.join(REPO_ROOT, "bench/reports");

/** Newest modification time of a file, or under a folder (sources of the server and its workspace packages). */
function newestMtime(dir: string): number {
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** The measured server's Postgres pool unless `--pool-size` says otherwise: the server's own default. */
export const POOL_SIZE = String(DEFAULT_POOL_SIZE);

/** Builds the bench's server bundle when it is missing or older than its sources. */
export function ensureServerBuilt(log: (line: string) => void): void {
  const sources = [
    "apps/server/src",
    "apps/server/bundle.mjs",
    "bench/src",
    "bench/build-server.mjs",
    "packages/db/drizzle",
    ...readdirSync(path.join(REPO_ROOT, "packages")).map((p) => `packages/${p}/src`),
  ].map((p) => path.join(REPO_ROOT, p));
  const built = existsSync(SERVER_BUNDLE) ? statSync(SERVER_BUNDLE).mtimeMs : 0;
  if (built > Math.max(...sources.map(newestMtime))) return;
  log("building the server with the bench's routes (pnpm --filter @quad/bench build:server) …");
  const result = spawnSync("pnpm", ["--filter", "@quad/bench", "build:server"], { cwd: REPO_ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error("the server build failed");
}

export interface RunningServer {
  baseUrl: string;
  port: number;
  logFile: string;
  /** CPU used so far by the server's processes and by PostgreSQL. */
  cpu(): CpuSample;
  stop(): Promise<void>;
}

/**
 * The built app with the ceiling routes (serve.ts; production mode, as
 * `pnpm start` runs the app's own bundle) on 127.0.0.1 and a free port,
 * with the bench's own JWT secret. Request logs are off (LOG_LEVEL=warn):
 * at thousands of requests a second, a log line each would measure pino
 * rather than the app. Production logs at info; the profiler's
 * `--env LOG_LEVEL=info` measures that.
 */
export async function startServer(opts: {
  databaseUrl: string;
  jwtSecret: string;
  name: string;
  env?: Record<string, string>;
  /** Node flags (e.g. --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
}): Promise<RunningServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = path.join(LOG_DIR, `server-${opts.name}.log`);
  const log = createWriteStream(logFile);
  // Neither a shared Redis nor a collector the caller's shell names: tracing is on only when a case asks.
  const { REDIS_URL: _redis, OTEL_EXPORTER_OTLP_ENDPOINT: _otlp, ...inherited } = process.env;
  const child: ChildProcess = spawn("node", [...(opts.nodeArgs ?? []), SERVER_BUNDLE], {
    // Where `pnpm start` and the image run the app's bundle from ($DATA_DIR is relative to it).
    cwd: path.join(REPO_ROOT, "apps/server"),
    // Its own process group, so stopping it stops everything it started.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...inherited,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: opts.databaseUrl,
      JWT_SECRET: opts.jwtSecret,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ALLOW_DEV_PROVIDERS: "true",
      SEED_DEMO: "false",
      // Each voter sends its own X-Forwarded-For (voters.ts): without this the server sees
      // 127.0.0.1 for all of them, and the per-address write backstop (10,000 a minute) refuses votes.
      TRUST_PROXY: "true",
      LOG_LEVEL: "warn",
      // The 10-minute job reads every un-notified vote at start (tens of thousands after a few
      // runs here): it is not a request path, and it would run during the first cases.
      JOBS_ENABLED: "false",
      ...opts.env,
    },
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
      child.once("exit", () => {
        clearTimeout(force);
        log.end();
        resolve();
      });
      process.kill(-child.pid!, "SIGTERM");
    });

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}; see ${logFile}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not become healthy within 60 s; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, port, logFile, cpu: () => sampleCpu(child.pid!), stop };
}

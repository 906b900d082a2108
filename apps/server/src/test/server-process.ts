import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { vi } from "vitest";
import { freePort, stopProcess, waitUntilAnswering } from "./processes";

const SERVER_DIR = path.resolve(import.meta.dirname, "../..");

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  dataDir: string;
  /** Everything it printed, for the failure message. */
  output(): string;
  alive(): boolean;
  stop(): Promise<void>;
}

/**
 * A real server process (src/index.ts, as `pnpm start` runs it) on a free
 * port (or `opts.port`: a replica started again where a proxy looks for it) with its own data directory, no Redis and no jobs, in the test's
 * environment (`inherited`, the caller's process.env); `env` adds to or
 * overrides that. Resolves once /api/health answers, unless `wait` is false.
 */
export async function startServerProcess(
  inherited: NodeJS.ProcessEnv,
  env: Record<string, string>,
  opts: { wait?: boolean; dataDir?: string; port?: number } = {},
): Promise<ServerProcess> {
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(tmpdir(), "quad-server-")));
  const port = opts.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
    cwd: SERVER_DIR,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...inherited,
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: "",
      REDIS_URL: "",
      DATA_DIR: dataDir,
      JOBS_ENABLED: "false",
      SEED_DEMO: "false",
      LOG_LEVEL: "fatal",
      ...env,
    },
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const server: ServerProcess = {
    child,
    base,
    dataDir,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      await stopProcess(child);
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
  if (opts.wait !== false) {
    try {
      // PGlite creates and migrates a new database at the first start: slow on a busy machine.
      await waitUntilAnswering(`${base}/api/health`, child, 150_000);
    } catch (error) {
      await server.stop();
      throw new Error(`${String(error)}\n${output}`, { cause: error });
    }
  }
  return server;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** performance.now() when it was sent, and how long the answer took. */
  sentAt: number;
  ms: number;
}

/** A random address in 127.0.0.0/8 (all of it is this machine): no per-address limit answers in the database's place. */
export const randomLoopback = () =>
  `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;

/** One request from a random loopback address; status 0 when it failed or took longer than `timeoutMs`. */
export function send(
  base: string,
  opts: { path: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number },
): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const started = performance.now();
  return new Promise((resolve) => {
    const failed = () =>
      resolve({ status: 0, headers: {}, body: "", sentAt: started, ms: performance.now() - started });
    const req = request(
      `${base}${opts.path}`,
      {
        method: payload ? "POST" : "GET",
        localAddress: randomLoopback(),
        timeout: opts.timeoutMs ?? 10_000,
        headers: { ...opts.headers, ...(payload ? { "content-type": "application/json" } : {}) },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            sentAt: started,
            ms: performance.now() - started,
          }),
        );
        res.on("error", failed);
      },
    );
    req.on("timeout", () => req.destroy());
    req.on("error", failed);
    req.end(payload);
  });
}

/**
 * Requests that reach the database: the health query, and a token refresh (a
 * transaction: on an error postgres.js sends its ROLLBACK on the same
 * connection). A mix of REST and tRPC.
 */
export const DATABASE_REQUESTS: { path: string; body?: unknown }[] = [
  { path: "/api/health" },
  { path: "/api/auth/refresh", body: { refreshToken: "not-a-token" } },
  { path: "/api/trpc/health.status" },
  { path: "/api/trpc/auth.refresh", body: { refreshToken: "not-a-token" } },
];

/** DATABASE_REQUESTS back to back on `lanes` connections until `stop()`; every answer is kept. */
export function burst(base: string, lanes: number) {
  let running = true;
  const answers: (Answer & { path: string })[] = [];
  const lane = async (i: number) => {
    for (let n = i; running; n++) {
      const target = DATABASE_REQUESTS[n % DATABASE_REQUESTS.length]!;
      const answer = await send(base, target);
      answers.push({ ...answer, path: target.path });
      if (answer.status === 0) await new Promise((r) => setTimeout(r, 20));
    }
  };
  const all = Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)));
  return {
    answers,
    /** Resolves once the server has answered `count` requests sent at or after `since` (performance.now()). */
    answeredSince: (since: number, count = 1) =>
      vi.waitFor(
        () => {
          const answered = answers.filter((a) => a.status !== 0 && a.sentAt >= since).length;
          if (answered < count) throw new Error(`${answered} of ${count} answered`);
        },
        { timeout: 15_000, interval: 10 },
      ),
    stop: async () => {
      running = false;
      await all;
    },
  };
}

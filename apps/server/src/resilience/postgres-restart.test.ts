import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { request } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, stopProcess, waitUntilAnswering } from "../test/processes";
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from "../test/throwaway-postgres";

/**
 * A Postgres restart under load must not take the server down: a real server
 * process (src/index.ts, as `pnpm start` runs it) on a cluster of this test's
 * own, a burst of requests in flight, and Postgres stopped with `-m immediate`
 * and `-m fast` over and over. postgres.js 3.4.9 could crash the process with a
 * deferred write to a socket it had already dropped (decision 0007).
 */
const binDir = postgresBinDir();
const SERVER_DIR = path.resolve(import.meta.dirname, "../..");
const RESTARTS = Number(process.env.RESTART_TEST_ROUNDS ?? 12);

describe.skipIf(!binDir)(binDir ? "Postgres restarts under load" : "Postgres restarts under load (skipped: no initdb/pg_ctl)", () => {
  let postgres: ThrowawayPostgres;
  let server: ChildProcess;
  let base = "";
  let workDir = "";
  let output = "";

  beforeAll(async () => {
    postgres = await startThrowawayPostgres(binDir!);
    workDir = await mkdtemp(path.join(tmpdir(), "quad-restart-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
      cwd: SERVER_DIR,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "development",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATABASE_URL: postgres.url,
        REDIS_URL: "",
        DATA_DIR: workDir,
        JOBS_ENABLED: "false",
        SEED_DEMO: "false",
        LOG_LEVEL: "fatal",
      },
    });
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await waitUntilAnswering(`${base}/api/health`, server);
  }, 120_000);

  afterAll(async () => {
    await stopProcess(server);
    await postgres?.destroy();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  /**
   * Requests that reach the database, back to back on `lanes` connections, until
   * `stop()`: the health query, and a token refresh (a transaction: on an error
   * postgres.js sends its ROLLBACK on the same connection). Each from its own
   * loopback address, so no per-address limit answers in the database's place.
   */
  function burst(lanes: number) {
    let running = true;
    const statuses = new Map<number, number>();
    const lane = async (i: number) => {
      for (let n = i; running; n++) {
        const status = await send(n % 2 === 0 ? { path: "/api/health" } : { path: "/api/auth/refresh", body: { refreshToken: `not-a-token-${n}` } });
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 0) await new Promise((r) => setTimeout(r, 20));
      }
    };
    const all = Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)));
    return {
      statuses,
      stop: async () => {
        running = false;
        await all;
      },
    };
  }

  /** The status, or 0 when the request failed or took over 10 s. */
  function send(opts: { path: string; body?: unknown }): Promise<number> {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const from = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;
    return new Promise((resolve) => {
      const req = request(
        `${base}${opts.path}`,
        {
          method: payload ? "POST" : "GET",
          localAddress: from,
          timeout: 10_000,
          headers: payload ? { "content-type": "application/json" } : {},
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", () => resolve(0));
        },
      );
      req.on("timeout", () => req.destroy());
      req.on("error", () => resolve(0));
      req.end(payload);
    });
  }

  it(`survives ${RESTARTS} restarts (immediate and fast) with requests in flight, and answers again each time`, async () => {
    const crashedAt: number[] = [];
    for (let round = 0; round < RESTARTS; round++) {
      const load = burst(24);
      await new Promise((r) => setTimeout(r, 150));
      postgres.stop(round % 2 === 0 ? "immediate" : "fast");
      await new Promise((r) => setTimeout(r, 100));
      postgres.start();
      await new Promise((r) => setTimeout(r, 150));
      await load.stop();
      if (server.exitCode !== null || server.signalCode !== null) {
        crashedAt.push(round);
        break;
      }
      await waitUntilAnswering(`${base}/api/health`, server, 15_000);
    }
    expect(crashedAt, `the server exited:\n${output.slice(-2000)}`).toEqual([]);
    expect(server.exitCode).toBeNull();
  }, 120_000);
});

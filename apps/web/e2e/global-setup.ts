import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, stopProcess, waitUntilAnswering } from "@quad/server/test/processes";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Origin of the server under test, e.g. http://127.0.0.1:41234 */
    baseURL: string;
  }
}

const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const ARTIFACTS_DIR = resolve(import.meta.dirname, "artifacts");
const SERVER_ENTRY = "apps/server/dist/bin/server.mjs";
/** A fresh embedded database takes ~20 s to create; leave plenty of room on slow machines. */
const HEALTH_TIMEOUT_MS = 120_000;

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)),
    );
  });
}

/**
 * Builds the web app and the server (unless E2E_SKIP_BUILD=1), starts the
 * production server bundle on a free port with a fresh data directory and
 * demo data, waits for /api/health, and hands the base URL to the tests.
 */
export default async function setup(project: TestProject) {
  if (process.env.E2E_SKIP_BUILD !== "1") {
    await run("pnpm", ["--filter", "@quad/web", "build"]);
    await run("pnpm", ["--filter", "@quad/server", "build"]);
  }

  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), "quad-e2e-"));
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const logFile = join(ARTIFACTS_DIR, "server.log");
  const log = createWriteStream(logFile);

  // The embedded database in DATA_DIR, never a shared one.
  const { DATABASE_URL: _ignoredDatabase, REDIS_URL: _ignoredRedis, ...inherited } = process.env;
  const server = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: {
      ...inherited,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: "development",
      SEED_DEMO: "true",
      TRUST_PROXY: "true",
      // Votes delivered at once, so the flows that vote and then look at an inbox see the card (the
      // delivery window itself is held by the server's tests).
      VOTE_DELIVERY_WINDOW_S: "0.001",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);

  const teardown = async () => {
    await stopProcess(server);
    log.end();
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await waitUntilAnswering(`${baseURL}/api/health`, server, HEALTH_TIMEOUT_MS);
  } catch (error) {
    await teardown();
    throw new Error(`${(error as Error).message}; see ${logFile}`, { cause: error });
  }

  project.provide("baseURL", baseURL);
  return teardown;
}

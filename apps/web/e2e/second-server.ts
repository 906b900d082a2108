import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort, stopProcess, waitUntilAnswering } from "@quad/server/test/processes";

/**
 * A private server for tests that need what only its operator can do, such
 * as `pnpm admin:grant` (which opens the embedded database itself, so the
 * server must be stopped meanwhile). Same bundle as the shared e2e server
 * (built by global-setup), its own temporary data directory, no demo data.
 */

const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const SERVER_ENTRY = "apps/server/dist/bin/server.mjs";
const HEALTH_TIMEOUT_MS = 120_000;

function environment(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // The embedded database in our DATA_DIR, never a shared one.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  return {
    ...inherited,
    DATA_DIR: dataDir,
    NODE_ENV: "development",
    SEED_DEMO: "false",
    TRUST_PROXY: "true",
    VOTE_DELIVERY_WINDOW_S: "0.001",
    ...extra,
  };
}

export interface SecondServer {
  /** Changes on every restart (a fresh free port). */
  baseURL: () => string;
  /** Stops the server, runs `pnpm admin:grant <phone>` on its database, starts it again. */
  grantAdmin: (phone: string) => Promise<void>;
  /** Stops the server, runs one SQL statement on its database (e.g. to age accounts), starts it again. */
  runSql: (statement: string) => Promise<void>;
  close: () => Promise<void>;
}

export async function startSecondServer(name: string): Promise<SecondServer> {
  const dataDir = await mkdtemp(join(tmpdir(), `quad-e2e-${name}-`));
  const artifacts = resolve(import.meta.dirname, "artifacts");
  await mkdir(artifacts, { recursive: true });
  const log: WriteStream = createWriteStream(join(artifacts, `${name}-server.log`));
  let child: ChildProcess | undefined;
  let baseURL = "";

  const start = async () => {
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    const started = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env: environment(dataDir, { PORT: String(port) }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    started.stdout?.pipe(log, { end: false });
    started.stderr?.pipe(log, { end: false });
    child = started;
    await waitUntilAnswering(`${baseURL}/api/health`, started, HEALTH_TIMEOUT_MS);
  };

  /** Runs a command on the stopped server's database, then starts the server again. */
  const whileStopped = async (label: string, command: string, args: string[]) => {
    if (child) await stopProcess(child);
    await new Promise<void>((resolvePromise, reject) => {
      const cli = spawn(command, args, {
        cwd: REPO_ROOT,
        env: environment(dataDir),
        stdio: ["ignore", "pipe", "pipe"],
      });
      cli.stdout?.pipe(log, { end: false });
      cli.stderr?.pipe(log, { end: false });
      cli.on("error", reject);
      cli.on("exit", (code) =>
        code === 0 ? resolvePromise() : reject(new Error(`${label} exited with ${code}; see ${name}-server.log`)),
      );
    });
    await start();
  };
  const grantAdmin = (phone: string) =>
    whileStopped("admin:grant", "pnpm", ["--filter", "@quad/server", "admin:grant", phone]);
  const runSql = (statement: string) =>
    whileStopped("run-sql", "pnpm", ["--filter", "@quad/server", "exec", "tsx", "src/test/run-sql.ts", statement]);

  const close = async () => {
    if (child) await stopProcess(child);
    log.end();
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await start();
  } catch (error) {
    await close();
    throw error;
  }
  return { baseURL: () => baseURL, grantAdmin, runSql, close };
}

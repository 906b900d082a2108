import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPhone } from "../test/auth";
import { urlOfTestDatabase } from "../test/postgres";
import { freePort, waitUntilAnswering } from "../test/processes";

/**
 * The server logs to stdout through a buffer it flushes, synchronously, when
 * the process exits (http/logger.ts). When nobody reads that stdout any more
 * (the reader stopped, or went away with the rest of its process group), the
 * flush retried a full pipe for ever and the process never exited, SIGTERM or
 * not. SIGTERM must end it within SHUTDOWN_TIMEOUT_MS whatever stdout does
 * (decision 0033).
 */
const SERVER_DIR = path.resolve(import.meta.dirname, "../..");
const SHUTDOWN_MS = 3_000;
// A Postgres test database when there is one: a first PGlite start takes a minute on a busy machine.
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();

/** Resolves with performance.now() when it exits, or undefined if it is still running after `ms`. */
function exitWithin(child: ChildProcess, ms: number): Promise<number | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(performance.now());
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(performance.now());
    });
  });
}

describe("a server whose stdout nobody reads any more", () => {
  let database: TestDatabase | undefined;
  let databaseUrl = "";
  const started: ChildProcess[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    if (serverUrl) {
      database = await createTestDatabase();
      databaseUrl = await urlOfTestDatabase(database.db, serverUrl);
    }
  }, 120_000);

  afterAll(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await database?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  /** A server process logging every request to a pipe this test holds; it answers once /api/health does. */
  async function start() {
    const dataDir = await mkdtemp(path.join(tmpdir(), "quad-log-reader-"));
    dirs.push(dataDir);
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", "src/index.ts"], {
      cwd: SERVER_DIR,
      stdio: ["ignore", "pipe", "ignore"],
      env: {
        ...process.env,
        NODE_ENV: "development",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        REDIS_URL: "",
        DATA_DIR: dataDir,
        JOBS_ENABLED: "false",
        SEED_DEMO: "false",
        LOG_LEVEL: "info",
        SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_MS),
      },
    });
    started.push(child);
    child.stdout!.on("data", () => {});
    const base = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(`${base}/api/health`, child, 150_000);
    return { child, base };
  }

  it("exits on SIGTERM when its reader stopped reading and the pipe is full", async () => {
    const { child, base } = await start();
    await signUp(base);
    // The reader stops; the server logs a line per request, each with its 4 KB path, until the pipe
    // and the reader's buffer (about 200 KB together) are full.
    child.stdout!.pause();
    child.stdout!.removeAllListeners("data");
    const longPath = `/api/${"x".repeat(4_000)}`;
    for (let i = 0; i < 150; i += 25) await Promise.all(Array.from({ length: 25 }, () => fetch(`${base}${longPath}`)));
    const signalledAt = performance.now();
    child.kill("SIGTERM");
    const exitedAt = await exitWithin(child, SHUTDOWN_MS + 5_000);
    console.log(
      `stdout full: ${exitedAt ? `exited ${Math.round(exitedAt - signalledAt)} ms after SIGTERM` : "still running 8 s after SIGTERM"}`,
    );
    expect(exitedAt, "still running").toBeDefined();
    expect(exitedAt! - signalledAt).toBeLessThan(SHUTDOWN_MS + 1_500);
  }, 240_000);

  it("exits on SIGTERM when its reader went away", async () => {
    const { child, base } = await start();
    await signUp(base);
    child.stdout!.destroy();
    const signalledAt = performance.now();
    child.kill("SIGTERM");
    const exitedAt = await exitWithin(child, SHUTDOWN_MS + 5_000);
    console.log(
      `reader gone: ${exitedAt ? `exited ${Math.round(exitedAt - signalledAt)} ms after SIGTERM` : "still running 8 s after SIGTERM"}`,
    );
    expect(exitedAt, "still running").toBeDefined();
    expect(exitedAt! - signalledAt).toBeLessThan(SHUTDOWN_MS + 1_500);
  }, 240_000);
});

/** One sign-up over HTTP: a code texted to the development outbox, read there and entered. */
async function signUp(base: string): Promise<void> {
  const phone = testPhone();
  const post = (url: string, body: unknown) =>
    fetch(`${base}${url}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const { codeRequestId } = (await (await post("/api/auth/send-code", { phone })).json()) as { codeRequestId: string };
  const outbox = (await (await fetch(`${base}/api/dev/sms-outbox?phone=${encodeURIComponent(phone)}`)).json()) as {
    messages: { body: string }[];
  };
  const code = /\b(\d{6})\b/.exec(outbox.messages[0]?.body ?? "")?.[1];
  const verified = await post("/api/auth/verify-code", {
    phone,
    code,
    codeRequestId,
    consents: { sms: true, terms: true },
  });
  if (verified.status !== 200) throw new Error(`verify-code ${verified.status}: ${await verified.text()}`);
}

import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { LOCK_FILE } from "@quad/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, startServerProcess, type ServerProcess } from "../test/server-process";

/**
 * One server per embedded database (decision 0014): a second server on the
 * same PGlite directory would run on its own copy and the first one's
 * answered writes would be lost. It must refuse to start, with one line
 * naming the directory and the holder; a lock left by a crash must not block.
 */
describe("one process per embedded database", () => {
  let dataDir: string;
  let first: ServerProcess | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "quad-pglite-lock-"));
  });

  afterAll(async () => {
    await first?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("a second server on the same data directory refuses to start, naming the directory and the process", async () => {
    first = await startServerProcess(process.env, {}, { dataDir });
    const second = await startServerProcess(process.env, {}, { dataDir, wait: false });
    const code = await new Promise<number | null>((resolve) => {
      if (!second.alive()) resolve(second.child.exitCode);
      second.child.once("exit", (c) => resolve(c));
      // Without the lock it runs (on its own copy of the data): stop it, and fail.
      setTimeout(() => void second.stop().then(() => resolve(null)), 120_000).unref();
    });
    const pgliteDir = path.join(dataDir, "pglite");
    const lines = second.output().trim().split("\n");
    expect(code).toBe(1);
    expect(lines, second.output()).toHaveLength(1);
    expect(lines[0]).toContain(pgliteDir);
    expect(lines[0]).toContain(`process ${first.child.pid}`);
    // The first one is untouched and still the holder.
    expect((await send(first.base, { path: "/api/health" })).status).toBe(200);
    expect(JSON.parse(readFileSync(path.join(pgliteDir, LOCK_FILE), "utf8"))).toMatchObject({
      pid: first.child.pid,
      hostname: hostname(),
    });
  }, 300_000);

  it("removes its lock on a clean stop", async () => {
    await first!.stop();
    first = undefined;
    expect(existsSync(path.join(dataDir, "pglite", LOCK_FILE))).toBe(false);
  }, 30_000);

  it("after a crash (kill -9) the lock it left does not block a restart", async () => {
    const crashed = await startServerProcess(process.env, {}, { dataDir });
    const lockFile = path.join(dataDir, "pglite", LOCK_FILE);
    crashed.child.kill("SIGKILL");
    await new Promise((resolve) => crashed.child.once("exit", resolve));
    // Left behind, naming a process that is gone.
    expect(JSON.parse(readFileSync(lockFile, "utf8")).pid).toBe(crashed.child.pid);
    first = await startServerProcess(process.env, {}, { dataDir });
    expect((await send(first.base, { path: "/api/health" })).status).toBe(200);
    expect(JSON.parse(readFileSync(lockFile, "utf8")).pid).toBe(first.child.pid);
  }, 300_000);
});

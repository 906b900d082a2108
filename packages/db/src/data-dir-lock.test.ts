import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirLockedError, LOCK_FILE, lockDataDir, type LockHolder } from "./data-dir-lock";

/**
 * A lock names its process by PID, and a PID is reused: after a reboot the
 * PID in a stale lock often belongs to another process by the time the server
 * starts, and the lock blocked every start until it was deleted by hand. The
 * lock also records the process's start time and the boot (from /proc), and
 * is the writer's only while they match (decision 0033).
 */
const hasProc = existsSync("/proc/self/stat") && existsSync("/proc/sys/kernel/random/boot_id");

describe.skipIf(!hasProc)(hasProc ? "the data directory lock" : "the data directory lock (skipped: no /proc)", () => {
  let dir: string;
  /** A live process that is not a server: its PID stands for one reused after a reboot. */
  let bystander: ChildProcess;
  let bystanderStart: string;
  const bootId = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  const startOf = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
  };
  const writeLock = (holder: LockHolder) => writeFileSync(path.join(dir, LOCK_FILE), `${JSON.stringify(holder)}\n`);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "quad-lock-"));
    bystander = spawn("sleep", ["120"], { stdio: "ignore" });
    await new Promise((resolve) => bystander.once("spawn", resolve));
    bystanderStart = startOf(bystander.pid!);
  });

  afterAll(async () => {
    bystander?.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
  });

  it("records the process's start time and boot", () => {
    const lock = lockDataDir(dir);
    try {
      expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8"))).toEqual({
        pid: process.pid,
        hostname: hostname(),
        startTime: startOf(process.pid),
        bootId: bootId(),
      });
    } finally {
      lock.release();
    }
  });

  it("takes over a lock whose PID now belongs to a process that started later", () => {
    writeLock({
      pid: bystander.pid!,
      hostname: hostname(),
      startTime: String(Number(bystanderStart) - 1),
      bootId: bootId(),
    });
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("takes over a lock written before a reboot, whatever has its PID now", () => {
    writeLock({ pid: bystander.pid!, hostname: hostname(), startTime: bystanderStart, bootId: "another-boot" });
    const lock = lockDataDir(dir);
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("refuses while the process that wrote the lock runs, and a lock without the start time while its PID lives", () => {
    writeLock({ pid: bystander.pid!, hostname: hostname(), startTime: bystanderStart, bootId: bootId() });
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    // Written before start times were recorded: the PID is all there is to go by.
    writeLock({ pid: bystander.pid!, hostname: hostname() });
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
  });
});

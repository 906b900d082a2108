import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

/**
 * One process per embedded database (decision 0014). PGlite keeps the whole
 * database in the memory of the process that opened it and writes it back to
 * the directory; a second process on the same directory runs happily on its
 * own copy, and whichever writes last wins: the other's answered writes are
 * lost. So the directory holds a lock file naming its process, created
 * exclusively at start and removed at a clean close.
 */
export const LOCK_FILE = "quad.lock";

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${holder.pid} on ${holder.hostname}; one process per embedded database ` +
        `(stop that one first, or use Postgres with DATABASE_URL for several). Lock file: ${path.join(dir, LOCK_FILE)}`,
    );
    this.name = "DataDirLockedError";
  }
}

export interface LockHolder {
  pid: number;
  hostname: string;
  /**
   * Which process had that PID: its start time (clock ticks after boot, /proc/<pid>/stat) and the
   * boot it ran in (/proc/sys/kernel/random/boot_id). Absent where there is no /proc, and in locks
   * written before they were recorded.
   */
  startTime?: string;
  bootId?: string;
}

export interface DataDirLock {
  /** Removes the lock file if it is still this process's. */
  release(): void;
}

/**
 * Takes the directory's lock or throws DataDirLockedError naming the process
 * that holds it. A lock whose process is gone (a crash, a kill -9), or whose
 * PID now belongs to another process (after a reboot), is stale and taken
 * over. A lock from another host (a shared volume) cannot be checked from
 * here and counts as held.
 */
export function lockDataDir(dir: string): DataDirLock {
  const file = path.resolve(dir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, hostname: hostname(), ...identityOf(process.pid) };
  const mine = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, mine, { flag: "wx" });
      heldHere.add(file);
      return {
        release() {
          heldHere.delete(file);
          if (read(file) === mine) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const content = read(file);
    if (content === undefined) continue;
    const holder = parse(content);
    if (holder && isHeld(holder, file)) throw new DataDirLockedError(dir, holder);
    takeOverStale(file, content);
  }
  throw new Error(`Could not take the lock ${file}: other processes keep replacing it`);
}

/**
 * Moves the stale file aside and deletes it only if it is still the stale
 * one: two processes starting at once on a stale lock must not delete the
 * fresh lock the faster one just took (it goes back when no other took its place).
 */
function takeOverStale(file: string, stale: string) {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  if (read(aside) !== stale) {
    try {
      linkSync(aside, file);
    } catch {
      // Another lock is in place by now; ours to try again is the next attempt.
    }
  }
  rmSync(aside, { force: true });
}

/** Lock files this process took and has not released. */
const heldHere = new Set<string>();

function isHeld(holder: LockHolder, file: string): boolean {
  if (holder.hostname !== hostname()) return true;
  // Ours, unless this process did not take it: then it is from a process before a container
  // restart that had the same PID (often 1), and that one is gone.
  if (holder.pid === process.pid) return heldHere.has(file);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // A process has that PID. After a reboot (or a restart of the container) it is most likely
  // another one, which held the start for good until the file was deleted by hand: the lock
  // is the writer's only if the boot and the start time it records are that process's.
  const now = identityOf(holder.pid);
  if (holder.bootId && now.bootId && holder.bootId !== now.bootId) return false;
  if (holder.startTime && now.startTime) return holder.startTime === now.startTime;
  return true;
}

/** The process's start time and the machine's boot, where /proc tells them. */
function identityOf(pid: number): Pick<LockHolder, "startTime" | "bootId"> {
  const bootId = read("/proc/sys/kernel/random/boot_id")?.trim();
  const stat = read(`/proc/${pid}/stat`);
  // The fields after the command name (which may hold spaces and parentheses): state is the
  // 3rd field of the line, starttime the 22nd.
  const startTime = stat?.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  return { ...(startTime ? { startTime } : {}), ...(bootId ? { bootId } : {}) };
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Anything unreadable (a crash while writing it) is treated as stale. */
function parse(content: string): LockHolder | undefined {
  try {
    const value = JSON.parse(content) as Partial<LockHolder>;
    if (!(Number.isInteger(value.pid) && (value.pid as number) > 0 && typeof value.hostname === "string"))
      return undefined;
    return {
      pid: value.pid as number,
      hostname: value.hostname,
      ...(typeof value.startTime === "string" ? { startTime: value.startTime } : {}),
      ...(typeof value.bootId === "string" ? { bootId: value.bootId } : {}),
    };
  } catch {
    return undefined;
  }
}

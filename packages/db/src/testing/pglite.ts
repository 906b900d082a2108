import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pgliteDatabase, type DatabaseHandle } from "../client";
import { migrate } from "../migrate";
import { migrationsHash } from "./migrations-hash";

/**
 * Creating a PGlite data dir takes seconds; loading a dump about one. Vitest
 * runs each test file in its own process, so the migrated dump is cached on
 * disk (keyed by migrations and PGlite version) and built by one process at a
 * time; within a process it is also kept in memory.
 */
const CACHE_DIR = fileURLToPath(new URL("../../node_modules/.cache/quad-db-test/", import.meta.url));
const LOCK_STALE_MS = 120_000;
const POLL_MS = 100;

/** The dump format belongs to the PGlite build: read its version (package.json is not exported). */
const pgliteVersion = (): string => {
  let dir = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  for (;;) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "@electric-sql/pglite" && pkg.version) return pkg.version;
    }
    const parent = dirname(dir);
    if (parent === dir) return "unknown";
    dir = parent;
  }
};

let dumpPromise: Promise<Blob> | undefined;

export async function createPgliteTestDatabase(): Promise<DatabaseHandle> {
  dumpPromise ??= loadOrBuildDump().catch((error: unknown) => {
    dumpPromise = undefined;
    throw error;
  });
  const client = await PGlite.create({ loadDataDir: await dumpPromise });
  return pgliteDatabase(client);
}

async function loadOrBuildDump(): Promise<Blob> {
  const file = join(CACHE_DIR, `pglite-${pgliteVersion()}-${migrationsHash()}.tar`);
  const lock = `${file}.lock`;
  await mkdir(CACHE_DIR, { recursive: true });
  for (;;) {
    const cached = await readFile(file).catch(() => undefined);
    if (cached) return new Blob([cached]);
    if (await tryLock(lock)) {
      try {
        const blob = await buildDump();
        const tmp = `${file}.${process.pid}.tmp`;
        await writeFile(tmp, new Uint8Array(await blob.arrayBuffer()));
        await rename(tmp, file); // atomic: readers never see a partial file
        await removeStaleDumps(file);
        return blob;
      } finally {
        await rm(lock, { recursive: true, force: true });
      }
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Dumps of older migrations or PGlite versions are tens of MB each: keep only the current one. */
async function removeStaleDumps(current: string): Promise<void> {
  for (const name of await readdir(CACHE_DIR)) {
    const path = join(CACHE_DIR, name);
    if (path !== current && name.startsWith("pglite-") && name.endsWith(".tar")) await rm(path, { force: true });
  }
}

/** mkdir is atomic: exactly one process creates the lock; a crashed holder's lock expires. */
async function tryLock(lock: string): Promise<boolean> {
  try {
    await mkdir(lock);
    return true;
  } catch {
    const info = await stat(lock).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > LOCK_STALE_MS) await rm(lock, { recursive: true, force: true });
    return false;
  }
}

async function buildDump(): Promise<Blob> {
  const client = await PGlite.create();
  try {
    await migrate(pgliteDatabase(client).db);
    // Uncompressed: loading skips gunzip; the file is a few tens of MB in node_modules/.cache.
    return await client.dumpDataDir("none");
  } finally {
    await client.close();
  }
}

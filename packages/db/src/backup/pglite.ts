import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { BACKUP_DIR_MODE, BACKUP_FILE_MODE, BackupError } from "./format";

/**
 * PGlite is one process's database: a second process opening the directory
 * of a running server would replay its WAL and write to it. An open instance
 * keeps postmaster.pid in the directory (its pid is always -42, so liveness
 * cannot be checked) and removes it on a clean close.
 */
function refuseIfOpen(dataDir: string): void {
  if (existsSync(join(dataDir, "postmaster.pid"))) {
    throw new BackupError(
      `${dataDir} is in use (postmaster.pid): stop the server first. ` +
        "If it crashed, start it once and stop it cleanly, then try again.",
    );
  }
}

/**
 * Writes a consistent copy of the embedded database to `file`: the data
 * directory as PGlite itself tars it (dumpDataDir, no query running), after
 * a CHECKPOINT so the data files are current. Answers its size in bytes.
 */
export async function backupPglite(dataDir: string, file: string): Promise<number> {
  if (!existsSync(join(dataDir, "PG_VERSION"))) throw new BackupError(`No embedded database in ${dataDir}`);
  refuseIfOpen(dataDir);
  const client = await PGlite.create({ dataDir });
  let tarball: Blob;
  try {
    await client.exec("checkpoint");
    tarball = await client.dumpDataDir("gzip");
  } finally {
    await client.close();
  }
  const bytes = new Uint8Array(await tarball.arrayBuffer());
  await writeAtomically(file, bytes);
  return bytes.length;
}

/**
 * Restores a dumpDataDir tarball into `dataDir`. It is unpacked into a
 * sibling directory and opened once (PGlite checks it is a data directory of
 * its own Postgres version) before it takes the place of `dataDir`, so a bad
 * file leaves the existing database untouched. An existing database is
 * replaced only with `force`.
 */
export async function restorePglite(file: string, dataDir: string, opts: { force?: boolean } = {}): Promise<void> {
  refuseIfOpen(dataDir);
  const exists = existsSync(join(dataDir, "PG_VERSION"));
  if (exists && !opts.force) {
    throw new BackupError(
      `${dataDir} already holds a database: restore refuses to overwrite it (pass --force to replace it)`,
    );
  }
  const staging = `${dataDir}.restoring`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const client = await PGlite.create({ dataDir: staging, loadDataDir: new Blob([await readFile(file)]) });
    try {
      await client.query("select count(*) from drizzle.__drizzle_migrations");
    } finally {
      await client.close();
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new BackupError(`${file} could not be restored: ${error instanceof Error ? error.message : String(error)}`);
  }
  const replaced = `${dataDir}.replaced`;
  if (existsSync(dataDir)) {
    await rm(replaced, { recursive: true, force: true });
    await rename(dataDir, replaced);
  }
  await rename(staging, dataDir);
  await rm(replaced, { recursive: true, force: true });
}

/** Written beside the target and renamed: a crash never leaves a half-written backup under the final name. */
export async function writeAtomically(file: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: BACKUP_DIR_MODE });
  const tmp = `${file}.${process.pid}.tmp`;
  // A new file, so the mode applies (a left-over one would keep its own).
  await rm(tmp, { force: true });
  await writeFile(tmp, bytes, { mode: BACKUP_FILE_MODE, flag: "wx" });
  await rename(tmp, file);
}

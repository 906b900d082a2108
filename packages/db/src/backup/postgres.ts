import { execFile } from "node:child_process";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { BACKUP_DIR_MODE, BACKUP_FILE_MODE, BackupError } from "./format";

const run = promisify(execFile);

/** Runs a PostgreSQL client program from PATH; its stderr becomes the error. */
async function client(program: "pg_dump" | "pg_restore", args: string[]): Promise<void> {
  try {
    await run(program, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { code, stderr } = error as { code?: unknown; stderr?: string };
    if (code === "ENOENT") {
      throw new BackupError(
        `${program} not found: install the PostgreSQL client (the server's major version or newer) and put it on PATH`,
      );
    }
    throw new BackupError(`${program} failed: ${(stderr ?? String(error)).trim()}`);
  }
}

/** "pg_dump (PostgreSQL) 15.20": printed with each backup, so the log says which client wrote it. */
export async function clientVersion(program: "pg_dump" | "pg_restore"): Promise<string> {
  try {
    const { stdout } = await run(program, ["--version"]);
    return stdout.trim();
  } catch {
    return `${program}: unknown version`;
  }
}

/**
 * pg_dump in custom format (-Fc: compressed, restored selectively and in
 * parallel by pg_restore). One snapshot: consistent while the app keeps
 * writing. Owners and grants are kept in the file and left out on restore.
 * Answers the file's size in bytes.
 */
export async function backupPostgres(url: string, file: string): Promise<number> {
  await mkdir(dirname(file), { recursive: true, mode: BACKUP_DIR_MODE });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    // Created owner-only before pg_dump writes into it (it keeps an existing file's mode).
    await writeFile(tmp, "", { mode: BACKUP_FILE_MODE, flag: "wx" });
    await client("pg_dump", ["--format=custom", `--file=${tmp}`, `--dbname=${url}`]);
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
  return (await stat(file)).size;
}

/** Tables, views, sequences and types outside the system schemas: what makes a database "not empty". */
async function userObjectCount(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
      and c.relkind in ('r', 'p', 'v', 'm', 'S')`;
  return row!.n;
}

/**
 * Restores a custom-format dump into the database at `url`, creating it when
 * it does not exist. It must be empty unless `force`, which drops every
 * object the dump holds first (--clean --if-exists). One transaction: a
 * failed restore leaves the target as it was.
 */
export async function restorePostgres(file: string, url: string, opts: { force?: boolean } = {}): Promise<void> {
  await ensureDatabase(url);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const objects = await userObjectCount(sql);
    if (objects > 0 && !opts.force) {
      const { name } = splitDatabaseUrl(url);
      throw new BackupError(
        `Database "${name}" is not empty (${objects} tables, views or sequences): restore refuses to overwrite it ` +
          "(restore into a new database, or pass --force to drop what the backup holds and replace it)",
      );
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
  await client("pg_restore", [
    "--single-transaction",
    "--exit-on-error",
    "--no-owner",
    "--no-privileges",
    ...(opts.force ? ["--clean", "--if-exists"] : []),
    `--dbname=${url}`,
    file,
  ]);
}

/**
 * The database a URL names, and the same URL naming the server's "postgres"
 * database instead. By hand, not with WHATWG's URL: a URL listing a primary
 * and its standby (`host1:5432,host2:5432`) is not one it can parse.
 */
function splitDatabaseUrl(url: string): { name: string; maintenance: string } {
  const match = /^(postgres(?:ql)?:\/\/[^/?#]*)(?:\/([^?#]*))?(.*)$/.exec(url);
  const name = match?.[2] ? decodeURIComponent(match[2]) : "";
  if (!match || !name) throw new BackupError("DATABASE_URL names no database");
  return { name, maintenance: `${match[1]}/postgres${match[3]}` };
}

/** Creates the target database (from the server's "postgres" database) when it is missing. */
async function ensureDatabase(url: string): Promise<void> {
  const { name, maintenance } = splitDatabaseUrl(url);
  const sql = postgres(maintenance, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${name}`;
    if (rows.length === 0) await sql.unsafe(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

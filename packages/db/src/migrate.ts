import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Database } from "./client";
import { queryRows } from "./sql";

/**
 * Resolved from this module's URL so it keeps working when the server is
 * bundled to dist/bin/server.mjs with the folder copied to dist/drizzle.
 */
export const DEFAULT_MIGRATIONS_FOLDER = fileURLToPath(new URL("../drizzle/", import.meta.url));

// Same bookkeeping table as drizzle-kit's migrator, so either tool sees the other's work.
const MIGRATIONS_SCHEMA = "drizzle";
const MIGRATIONS_TABLE = "__drizzle_migrations";
/** Arbitrary constant: serialises concurrent migrators (several server processes starting). */
const MIGRATION_LOCK_KEY = 7_391_224_617;

const migrationsTable = () => sql`${sql.identifier(MIGRATIONS_SCHEMA)}.${sql.identifier(MIGRATIONS_TABLE)}`;
const folderPath = (folder: string | URL) => (folder instanceof URL ? fileURLToPath(folder) : folder);

export interface MigrateOptions {
  /** A path or file: URL of a drizzle-kit output folder. Default: DEFAULT_MIGRATIONS_FOLDER. */
  migrationsFolder?: string | URL;
}

/**
 * Applies pending migrations in one transaction that first takes an advisory
 * lock, so concurrent callers apply each migration once. Returns how many ran.
 */
export async function migrate(db: Database, opts: MigrateOptions = {}): Promise<{ applied: number }> {
  const folder = opts.migrationsFolder ?? DEFAULT_MIGRATIONS_FOLDER;
  const migrations = readMigrationFiles({ migrationsFolder: folderPath(folder) });
  const table = migrationsTable();

  return db.transaction(async (tx) => {
    // Neither waiting for another process's migration nor a long one is a request's statement.
    await tx.execute(sql`set local statement_timeout = 0`);
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.execute(sql`create schema if not exists ${sql.identifier(MIGRATIONS_SCHEMA)}`);
    await tx.execute(
      sql`create table if not exists ${table} (id serial primary key, hash text not null, created_at bigint)`,
    );
    const [last] = await queryRows<{ created_at: string | number | null }>(
      tx,
      sql`select created_at from ${table} order by created_at desc limit 1`,
    );
    const lastMillis = last?.created_at == null ? -Infinity : Number(last.created_at);
    let applied = 0;
    for (const migration of migrations) {
      if (migration.folderMillis <= lastMillis) continue;
      for (const statement of migration.sql) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(
        sql`insert into ${table} (hash, created_at) values (${migration.hash}, ${migration.folderMillis})`,
      );
      applied++;
    }
    return { applied };
  });
}

/**
 * Whether the database has every migration of the folder, in one small
 * query (for a readiness check): the newest one's time is read from the
 * folder once, and a database without the bookkeeping table has none.
 */
export function migrationCheck(opts: MigrateOptions = {}): (db: Database) => Promise<boolean> {
  let newest: number | undefined;
  return async (db) => {
    newest ??= Math.max(
      -Infinity,
      ...readMigrationFiles({ migrationsFolder: folderPath(opts.migrationsFolder ?? DEFAULT_MIGRATIONS_FOLDER) }).map(
        (migration) => migration.folderMillis,
      ),
    );
    const [bookkeeping] = await queryRows<{ exists: boolean }>(
      db,
      sql`select to_regclass(${`${MIGRATIONS_SCHEMA}.${MIGRATIONS_TABLE}`}) is not null as exists`,
    );
    if (!bookkeeping?.exists) return newest === -Infinity;
    const [last] = await queryRows<{ created_at: string | number | null }>(
      db,
      sql`select max(created_at) as created_at from ${migrationsTable()}`,
    );
    return last?.created_at != null && Number(last.created_at) >= newest;
  };
}

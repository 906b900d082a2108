import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createDatabase, type DatabaseHandle } from "../client";
import { migrate } from "../migrate";
import { migrationsHash } from "./migrations-hash";

/**
 * Each test database is a fresh `CREATE DATABASE ... TEMPLATE` copy of a
 * migrated template (milliseconds, instead of migrating every time). The
 * template is named after the migrations' hash and built by one process at a
 * time under an advisory lock; a half-built one never carries the final name.
 */
const TEMPLATE_PREFIX = "quad_tpl_";
const TEST_DB_PREFIX = "quad_test_";
const TEMPLATE_LOCK_KEY = 7_391_224_619;
/** Test databases left by crashed runs are dropped once older than this. */
const LEFTOVER_AGE_MS = 6 * 60 * 60 * 1000;
/** Templates of other migration sets kept, newest first (parallel checkouts on one server). */
const OTHER_TEMPLATES_KEPT = 4;
/** Enough connections for tests that exercise concurrent requests. */
const TEST_POOL_SIZE = 5;

const templates = new Map<string, Promise<string>>();

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(serverUrl: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  // One connection: the session-level advisory lock and its unlock must share it.
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {}, connection: { application_name: "quad-test" } });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * 55006 (object in use): a just-closed connection's backend may still be
 * exiting, or another process is briefly connected. Retry for a few seconds.
 */
async function retryWhileInUse(fn: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fn();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "55006" || attempt >= 30) throw error;
      await new Promise((r) => setTimeout(r, 50 + attempt * 50));
    }
  }
}

async function databaseExists(sql: postgres.Sql, name: string): Promise<boolean> {
  const rows = await sql`select 1 from pg_database where datname = ${name}`;
  return rows.length > 0;
}

async function buildTemplate(serverUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${migrationsHash()}`;
  const building = `${name}_building`;
  await withAdmin(serverUrl, async (sql) => {
    await sql`select pg_advisory_lock(${TEMPLATE_LOCK_KEY})`;
    try {
      if (await databaseExists(sql, name)) return;
      await sql.unsafe(`drop database if exists ${ident(building)} with (force)`);
      await sql.unsafe(`create database ${ident(building)}`);
      const handle = await createDatabase({ url: databaseUrl(serverUrl, building), poolSize: 1 });
      try {
        await migrate(handle.db);
      } finally {
        await handle.close();
      }
      await retryWhileInUse(() => sql.unsafe(`alter database ${ident(building)} rename to ${ident(name)}`));
      await dropLeftovers(sql, name);
    } finally {
      await sql`select pg_advisory_unlock(${TEMPLATE_LOCK_KEY})`;
    }
  });
  return name;
}

/**
 * Old templates and test databases of crashed runs; in use ones fail to drop
 * and are left alone. The newest few other templates stay: checkouts of other
 * branches (other migrations) may be testing on the same server right now.
 */
async function dropLeftovers(sql: postgres.Sql, currentTemplate: string): Promise<void> {
  const rows = await sql<{ datname: string }[]>`
    select datname from pg_database
    where datname like ${`${TEMPLATE_PREFIX}%`} or datname like ${`${TEST_DB_PREFIX}%`}
    order by oid desc`;
  let otherTemplates = 0;
  for (const { datname } of rows) {
    if (datname === currentTemplate) continue;
    if (datname.startsWith(TEMPLATE_PREFIX) && ++otherTemplates <= OTHER_TEMPLATES_KEPT) continue;
    if (datname.startsWith(TEST_DB_PREFIX)) {
      const created = parseInt(datname.slice(TEST_DB_PREFIX.length).split("_")[0] ?? "", 36);
      if (!(Date.now() - created > LEFTOVER_AGE_MS)) continue;
    }
    await sql.unsafe(`drop database if exists ${ident(datname)}`).catch(() => {});
  }
}

export async function createPostgresTestDatabase(serverUrl: string): Promise<DatabaseHandle> {
  let template = templates.get(serverUrl);
  if (!template) {
    template = buildTemplate(serverUrl);
    templates.set(serverUrl, template);
    template.catch(() => templates.delete(serverUrl));
  }
  const templateName = await template;
  // Creation time in the name lets a later run recognise leftovers.
  const name = `${TEST_DB_PREFIX}${Date.now().toString(36)}_${process.pid}_${randomBytes(4).toString("hex")}`;
  await withAdmin(serverUrl, (sql) =>
    retryWhileInUse(() => sql.unsafe(`create database ${ident(name)} template ${ident(templateName)}`)),
  );
  const handle = await createDatabase({ url: databaseUrl(serverUrl, name), poolSize: TEST_POOL_SIZE });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await withAdmin(serverUrl, (sql) => sql.unsafe(`drop database if exists ${ident(name)} with (force)`));
    },
  };
}

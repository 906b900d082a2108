import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import postgres from "postgres";
import * as schema from "./schema/index";

export type Schema = typeof schema;

/**
 * The one database type services are written against. Both drivers' databases
 * (and their transactions) are assignable to it. Raw `db.execute()` results
 * differ between drivers: read them through `queryRows`.
 */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type DatabaseKind = "postgres" | "pglite";

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** Ends the pool (Postgres) or shuts the embedded database down (PGlite). */
  close(): Promise<void>;
}

export interface CreateDatabaseOptions {
  /** Postgres URL: when given, postgres.js is used and dataDir is ignored. */
  url?: string;
  /** PGlite data directory (created when missing). Undefined: an in-memory PGlite, gone on close. */
  dataDir?: string;
  /** postgres.js pool size (default 10). PGlite always has one connection. */
  poolSize?: number;
}

export const DEFAULT_POOL_SIZE = 10;

export async function createDatabase(opts: CreateDatabaseOptions = {}): Promise<DatabaseHandle> {
  if (opts.url) return postgresDatabase(opts.url, opts.poolSize ?? DEFAULT_POOL_SIZE);
  if (opts.dataDir !== undefined) mkdirSync(opts.dataDir, { recursive: true });
  const client = await PGlite.create(opts.dataDir === undefined ? {} : { dataDir: opts.dataDir });
  return pgliteDatabase(client);
}

function postgresDatabase(url: string, poolSize: number): DatabaseHandle {
  const client = postgres(url, {
    max: poolSize,
    // "already exists, skipping" notices from idempotent DDL are noise.
    onnotice: () => {},
    connection: { application_name: "quad" },
  });
  const db: Database = drizzlePostgres(client, { schema });
  return { db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
}

/** Wraps an existing PGlite instance (used by the test harness to load from a dump). */
export function pgliteDatabase(client: PGlite): DatabaseHandle {
  const db: Database = drizzlePglite(client, { schema });
  return {
    db,
    kind: "pglite",
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import postgres from "postgres";
import { answerWatchdog } from "./answer-watchdog";
import { lockDataDir } from "./data-dir-lock";
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
  /** The Postgres pool's state now (metrics); PGlite has no pool. */
  pool?: () => PoolState;
}

/** The Postgres pool's state, as postgres.js keeps it (read through our patch to it, decision 0007). */
export interface PoolState {
  /** Connections the pool may open. */
  size: number;
  /** Connections opening, running statements, or held by a transaction. */
  inUse: number;
  /** Statements queued for a connection, or written behind another statement on one. */
  waiting: number;
  /** Statements handed to the pool so far while no connection was idle or left to open. */
  waited: number;
}

export interface CreateDatabaseOptions {
  /** Postgres URL: when given, postgres.js is used and dataDir is ignored. */
  url?: string;
  /** PGlite data directory (created when missing). Undefined: an in-memory PGlite, gone on close. */
  dataDir?: string;
  /** postgres.js pool size (default 10). PGlite always has one connection. */
  poolSize?: number;
  /** How long one attempt to open a Postgres connection may take (default 2 s). */
  connectTimeoutMs?: number;
  /** Postgres' statement_timeout for every session of the pool (default: none; the server passes 10 s). */
  statementTimeoutMs?: number;
  /**
   * A connection that sent a query and heard nothing back this long is checked, and dropped
   * when Postgres does not answer a new connection either (answer-watchdog.ts). Default: not
   * watched (scripts, migrations); the server passes 2 s.
   */
  answerTimeoutMs?: number;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
/** The server's default (DATABASE_STATEMENT_TIMEOUT_MS); scripts such as the seed run without one. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 10_000;
/**
 * The longest pause between attempts to reconnect. postgres.js's own backoff
 * grows to 20 s after a few failed attempts, and every query waiting for a
 * connection waits for it: requests hung long after the database was back.
 */
const MAX_RECONNECT_DELAY_S = 0.25;
/** The server's default (DATABASE_ANSWER_TIMEOUT_MS). */
export const DEFAULT_ANSWER_TIMEOUT_MS = 2_000;
/** TCP keepalive's idle time on the pool's connections, this side (Node sets no probe interval or count). */
const KEEPALIVE_S = 5;
/**
 * Postgres' side of the same connections: a backend whose client vanished
 * (keepalive probes unanswered, or sent data unacknowledged for 10 s) ends,
 * giving back its locks and its connection slot. Node cannot set
 * TCP_USER_TIMEOUT on its own sockets; Postgres can on its own. Ignored on
 * Unix-domain sockets.
 */
const SERVER_TCP_SETTINGS = {
  tcp_keepalives_idle: 5,
  tcp_keepalives_interval: 2,
  tcp_keepalives_count: 3,
  tcp_user_timeout: 10_000,
};
/**
 * postgres.js's pause before the next connection attempt, in seconds: the
 * pool's, and the LISTEN connections' (apps/server notices), which otherwise
 * came back up to 20 s after the database, or after a failover's new primary.
 */
export const reconnectBackoff = (attempts: number) => Math.min(0.02 * 2 ** attempts, MAX_RECONNECT_DELAY_S);

export async function createDatabase(opts: CreateDatabaseOptions = {}): Promise<DatabaseHandle> {
  if (opts.url) return postgresDatabase(opts.url, opts);
  if (opts.dataDir === undefined) return pgliteDatabase(await PGlite.create());
  mkdirSync(opts.dataDir, { recursive: true });
  // Before opening it: a second process would otherwise run on its own copy of the data.
  const lock = lockDataDir(opts.dataDir);
  try {
    const handle = pgliteDatabase(await PGlite.create({ dataDir: opts.dataDir }));
    return { ...handle, close: () => handle.close().finally(() => lock.release()) };
  } catch (error) {
    lock.release();
    throw error;
  }
}

function postgresDatabase(url: string, opts: CreateDatabaseOptions): DatabaseHandle {
  const connectTimeoutMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const watchdog = opts.answerTimeoutMs
    ? answerWatchdog({
        answerTimeoutMs: opts.answerTimeoutMs,
        probeTimeoutMs: connectTimeoutMs,
        // Postgres ends a slow statement by then, on any connection that still works.
        giveUpMs: opts.statementTimeoutMs ? opts.statementTimeoutMs + opts.answerTimeoutMs : undefined,
        keepAliveMs: KEEPALIVE_S * 1000,
      })
    : undefined;
  const client = postgres(url, {
    max: opts.poolSize ?? DEFAULT_POOL_SIZE,
    // postgres.js counts these in seconds.
    connect_timeout: connectTimeoutMs / 1000,
    keep_alive: KEEPALIVE_S,
    backoff: reconnectBackoff,
    // "already exists, skipping" notices from idempotent DDL are noise.
    onnotice: () => {},
    connection: {
      application_name: "quad",
      ...SERVER_TCP_SETTINGS,
      ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
    },
    // A documented option its types leave out ("Custom socket" in its README).
    ...(watchdog ? ({ socket: watchdog.socket } as object) : {}),
  });
  const db: Database = drizzlePostgres(client, { schema });
  return {
    db,
    kind: "postgres",
    close: () => client.end({ timeout: 5 }).finally(() => watchdog?.stop()),
    // Added by our patch; postgres.js's own types do not know it.
    pool: () => (client as unknown as { pool(): PoolState }).pool(),
  };
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

import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database } from "./client";

/**
 * Runs raw SQL and returns its rows on either driver: postgres.js answers an
 * array, PGlite an object with `rows`. Column values come back as the driver
 * parses them (e.g. timestamps may be strings): prefer the query builder when
 * you need typed values.
 */
export async function queryRows<T = Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

const dialect = new PgDialect();

interface PostgresJsClient {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<unknown[]>;
  begin: unknown;
}
const postgresJsClientOf = (db: Database): PostgresJsClient | null => {
  const client = (db as { $client?: Partial<PostgresJsClient> }).$client;
  return client && typeof client.unsafe === "function" && typeof client.begin === "function" ? (client as PostgresJsClient) : null;
};

/**
 * queryRows for a hot statement run many times: on postgres.js it is sent as
 * a named prepared statement (parsed once per connection, planned once when
 * Postgres settles on a generic plan, one round trip per run). Drizzle sends
 * raw and unnamed queries unprepared, which postgres.js does in two round
 * trips (Parse/Describe, then Parse/Bind/Execute) with a fresh plan every
 * time. On PGlite, and inside a transaction, it is queryRows.
 */
export async function queryPrepared<T = Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  const client = postgresJsClientOf(db);
  if (!client) return queryRows<T>(db, query);
  const { sql, params } = dialect.sqlToQuery(query);
  return (await client.unsafe(sql, params, { prepare: true })) as T[];
}

import { fillPlaceholders, sql as sqlTag, type Placeholder, type SQL } from "drizzle-orm";
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
  return client && typeof client.unsafe === "function" && typeof client.begin === "function"
    ? (client as PostgresJsClient)
    : null;
};

/** What a statement's builder interpolates: one placeholder per value, never the value itself. */
export type StatementParams<P> = { readonly [K in keyof P]: Placeholder<K & string, P[K]> };

const placeholders = new Proxy({} as Record<string, Placeholder>, {
  get: (cache, name: string) => (cache[name] ??= sqlTag.placeholder(name)),
});

/**
 * A hot statement run many times. On postgres.js it is sent as a named
 * prepared statement (parsed once per connection, planned once when Postgres
 * settles on a generic plan, one round trip per run; drizzle sends raw queries
 * unprepared, which postgres.js does in two round trips with a fresh plan each
 * time), and its SQL text is built once: the builder only places its
 * parameters (it may not compute with them) and each run fills them in.
 * Rebuilding the text from drizzle's fragments on every request was ~9 % of
 * the server's CPU on the round paths. On PGlite, and inside a transaction,
 * the builder runs with the values themselves, through queryRows.
 */
export function preparedStatement<P extends object>(build: (p: StatementParams<P>) => SQL) {
  let built: { sql: string; params: unknown[] } | undefined;
  return async <T = Record<string, unknown>>(db: Database, values: P): Promise<T[]> => {
    const client = postgresJsClientOf(db);
    if (!client) return queryRows<T>(db, build(values as unknown as StatementParams<P>));
    built ??= dialect.sqlToQuery(build(placeholders as unknown as StatementParams<P>));
    return (await client.unsafe(built.sql, fillPlaceholders(built.params, values as Record<string, unknown>), {
      prepare: true,
    })) as T[];
  };
}

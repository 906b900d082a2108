import type { SQL } from "drizzle-orm";
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

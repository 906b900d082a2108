import type { DatabaseHandle } from "../client";
import { createPgliteTestDatabase } from "./pglite";
import { createPostgresTestDatabase } from "./postgres";

export { startBlackholeProxy, type BlackholeProxy } from "./blackhole-proxy";
export { deliveredAt, insertTestSchool, insertTestUser, insertTestPrompt, type TestUserOverrides } from "./fixtures";

export type TestDatabase = DatabaseHandle;

/**
 * A fresh, migrated, empty database for one test (or one file).
 *
 * - TEST_DATABASE_URL or DATABASE_URL set: a new database on that Postgres
 *   server, copied from a migrated template; dropped by close().
 * - Neither set: an in-memory PGlite loaded from a cached migrated dump.
 *
 * Always `await close()` (e.g. in afterAll/afterEach).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
  return url ? createPostgresTestDatabase(url) : createPgliteTestDatabase();
}

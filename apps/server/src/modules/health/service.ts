import { ERROR_MESSAGES } from "@quad/contracts";
import { isStorageFull, migrationCheck, type Database } from "@quad/db";
import { sql } from "drizzle-orm";
import { serviceUnavailable, unavailableError } from "../../errors";

/** What readiness reports besides the database: the process shutting down, its writes failing for want of space. */
export interface Lifecycle {
  /** Set on SIGTERM, so readiness fails while in-flight requests finish. */
  draining: boolean;
  /** When (ms, the app's clock) a write last failed for want of space (noteStorageFull). */
  storageFullAt?: number;
}

/**
 * How long readiness stays off after a write failed for want of space. Nothing
 * says when space is back but a write that works: past this, readiness is on
 * again, and the next write that fails turns it off again.
 */
export const STORAGE_FULL_HOLD_MS = 30_000;

/** Remembers a write that failed for want of space (Postgres' 53100, ENOSPC), so readiness says so for a while. */
export function noteStorageFull(lifecycle: Lifecycle | undefined, now: () => Date, error: unknown): void {
  if (lifecycle && isStorageFull(error)) lifecycle.storageFullAt = now().getTime();
}

/**
 * A load balancer or supervisor asks often and must get an answer quickly,
 * so the database gets this long to answer before the server says 503
 * itself (the query may still finish; nothing waits for it).
 */
export const HEALTH_DATABASE_TIMEOUT_MS = 800;

/** The database's answer to `select 1`; one execution (Drizzle runs a query on each then()). */
export const databaseAnswers = (db: Database): Promise<unknown> => Promise.resolve(db.execute(sql`select 1`));

/** `work`, or a 503 once HEALTH_DATABASE_TIMEOUT_MS has passed; a database error is a 503 too. */
export async function withinHealthTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(serviceUnavailable()), HEALTH_DATABASE_TIMEOUT_MS);
  });
  // Settled even when the timer wins.
  work.catch(() => {});
  try {
    return await Promise.race([work, timedOut]);
  } catch (error) {
    throw unavailableError(error) ?? error;
  } finally {
    clearTimeout(timer);
  }
}

const hasEveryMigration = migrationCheck();
// Migrations are not undone under a running server: once seen applied, a database stays so.
const migrated = new WeakSet<Database>();

/** Ready for traffic, or a 503 saying why not. */
export async function readiness(db: Database, lifecycle: Lifecycle | undefined, now: () => Date): Promise<void> {
  if (lifecycle?.draining) throw serviceUnavailable(ERROR_MESSAGES.shuttingDown);
  const fullAt = lifecycle?.storageFullAt;
  if (fullAt !== undefined && now().getTime() - fullAt < STORAGE_FULL_HOLD_MS)
    throw serviceUnavailable(ERROR_MESSAGES.storageFull);
  if (migrated.has(db)) {
    await withinHealthTimeout(databaseAnswers(db));
    return;
  }
  if (!(await withinHealthTimeout(hasEveryMigration(db)))) throw serviceUnavailable(ERROR_MESSAGES.migrationsPending);
  migrated.add(db);
}

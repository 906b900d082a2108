import { ERROR_MESSAGES } from "@quad/contracts";
import { fullStorageOf, migrationCheck, type Database, type FullStorage } from "@quad/db";
import { sql } from "drizzle-orm";
import { serviceUnavailable, unavailableError } from "../../errors";

/** The process's state besides the database: shutting down (readiness), its writes failing for want of space (metrics). */
export interface Lifecycle {
  /** Set on SIGTERM, so readiness fails while in-flight requests finish. */
  draining: boolean;
  /** When (ms, the app's clock) a write last failed for want of space, by where (noteStorageFull). */
  storageFullAt?: Partial<Record<FullStorage, number>>;
}

/**
 * How long a write that failed for want of space counts as the storage being
 * full. Nothing says when space is back but a write that works: past this it
 * counts as free again, and the next write that fails says full again.
 */
export const STORAGE_FULL_HOLD_MS = 30_000;

/**
 * Remembers a write that failed for want of space (Postgres' 53100, ENOSPC),
 * for the metrics. Readiness leaves it out: the media volume and Postgres are
 * shared, so every replica is as full as this one, and taking them all out of
 * rotation would refuse the votes and reads that still work.
 */
export function noteStorageFull(lifecycle: Lifecycle | undefined, now: () => Date, error: unknown): void {
  const storage = fullStorageOf(error);
  if (lifecycle && storage) (lifecycle.storageFullAt ??= {})[storage] = now().getTime();
}

/** Whether a write to `storage` failed for want of space within STORAGE_FULL_HOLD_MS. */
export function storageFull(lifecycle: Lifecycle | undefined, now: () => Date, storage: FullStorage): boolean {
  const at = lifecycle?.storageFullAt?.[storage];
  return at !== undefined && now().getTime() - at < STORAGE_FULL_HOLD_MS;
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
export async function readiness(db: Database, lifecycle: Lifecycle | undefined): Promise<void> {
  if (lifecycle?.draining) throw serviceUnavailable(ERROR_MESSAGES.shuttingDown);
  if (migrated.has(db)) {
    await withinHealthTimeout(databaseAnswers(db));
    return;
  }
  if (!(await withinHealthTimeout(hasEveryMigration(db)))) throw serviceUnavailable(ERROR_MESSAGES.migrationsPending);
  migrated.add(db);
}

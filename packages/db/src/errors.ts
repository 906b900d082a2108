/** SQLSTATE codes services branch on. */
export const PG_UNIQUE_VIOLATION = "23505";
export const PG_CHECK_VIOLATION = "23514";
export const PG_FOREIGN_KEY_VIOLATION = "23503";
export const PG_NOT_NULL_VIOLATION = "23502";

export interface PgErrorInfo {
  code: string;
  constraint?: string;
}

/**
 * The Postgres error inside whatever was thrown: Drizzle wraps driver errors
 * (DrizzleQueryError.cause), postgres.js names the constraint
 * `constraint_name`, PGlite `constraint`.
 */
export function pgErrorOf(error: unknown): PgErrorInfo | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const e = current as { code?: unknown; constraint_name?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) {
      const constraint = typeof e.constraint_name === "string" ? e.constraint_name : e.constraint;
      return typeof constraint === "string" ? { code: e.code, constraint } : { code: e.code };
    }
    current = e.cause;
  }
  return undefined;
}

function violates(code: string, error: unknown, constraint?: string): boolean {
  const info = pgErrorOf(error);
  return info?.code === code && (constraint === undefined || info.constraint === constraint);
}

export const isUniqueViolation = (error: unknown, constraint?: string) =>
  violates(PG_UNIQUE_VIOLATION, error, constraint);
export const isCheckViolation = (error: unknown, constraint?: string) =>
  violates(PG_CHECK_VIOLATION, error, constraint);
export const isForeignKeyViolation = (error: unknown, constraint?: string) =>
  violates(PG_FOREIGN_KEY_VIOLATION, error, constraint);

/**
 * A write that failed for want of space: the disk under Postgres (53100
 * disk_full) or under our own files (ENOSPC; EDQUOT, a quota).
 */
const STORAGE_FULL_CODES = new Map<string, FullStorage>([
  ["53100", "database"],
  ["ENOSPC", "data_dir"],
  ["EDQUOT", "data_dir"],
]);

/** Where the space ran out: Postgres' disk, or the one under DATA_DIR (media, the embedded database). */
export type FullStorage = "database" | "data_dir";

/** Which storage a write failed on for want of space, or undefined when that is not why it failed. */
export function fullStorageOf(error: unknown): FullStorage | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    const storage = typeof code === "string" ? STORAGE_FULL_CODES.get(code) : undefined;
    if (storage) return storage;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isStorageFull = (error: unknown): boolean => fullStorageOf(error) !== undefined;

/**
 * Errors that say the database could not be reached or did not answer in
 * time, rather than that the query was wrong: postgres.js's own connection
 * codes, the socket's, and Postgres refusing or ending sessions while it
 * stops, starts or is overloaded (57P01-57P03, class 08), is short of a
 * resource (class 53: disk, memory, connections), a statement cut off by
 * statement_timeout (57014), and a write refused as read-only (25006): with a
 * primary and a standby that means the connection reached the wrong node,
 * mid-failover or mid-switchover; the driver closes that connection and the
 * next one finds the primary (decision 0032).
 */
const UNAVAILABLE_CODES = new Set([
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "57014",
  "25006",
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || /^(08|53)[0-9A-Z]{3}$/.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

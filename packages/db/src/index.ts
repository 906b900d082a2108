export {
  createDatabase,
  pgliteDatabase,
  DEFAULT_POOL_SIZE,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  DEFAULT_ANSWER_TIMEOUT_MS,
  reconnectBackoff,
  type CreateDatabaseOptions,
  type Database,
  type DatabaseHandle,
  type DatabaseKind,
  type PoolState,
  type Schema,
  type Transaction,
} from "./client";
export { migrate, migrationCheck, DEFAULT_MIGRATIONS_FOLDER, type MigrateOptions } from "./migrate";
export { preparedStatement, queryRows, type StatementParams } from "./sql";
export { observeStatements, type SentStatement, type StatementObserver } from "./observe";
export * from "./errors";
export { DataDirLockedError, LOCK_FILE, lockDataDir, type DataDirLock, type LockHolder } from "./data-dir-lock";
export * from "./schema/index";

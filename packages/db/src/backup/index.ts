export { BackupError, backupFormatOf, defaultBackupName } from "./format";
export { backupPglite, restorePglite } from "./pglite";
export { backupPostgres, clientVersion, restorePostgres } from "./postgres";

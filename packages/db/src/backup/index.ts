export { BACKUP_EXTENSION, BackupError, backupFormatOf, defaultBackupName, type BackupFormat } from "./format";
export { backupPglite, restorePglite } from "./pglite";
export { backupPostgres, clientVersion, restorePostgres } from "./postgres";

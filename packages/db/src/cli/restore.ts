import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { BackupError, backupFormatOf, clientVersion, restorePglite, restorePostgres } from "../backup/index";
import { pgliteDir, readCliEnv, runCli } from "./env";

/**
 * `pnpm db:restore FILE [--force]`: restores a backup made by db:backup into
 * DATABASE_URL (created if missing) or into $DATA_DIR/pglite (server
 * stopped). The target must be empty unless --force is given.
 */
runCli(async () => {
  const { values, positionals } = parseArgs({
    options: { force: { type: "boolean", default: false } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new BackupError("Usage: pnpm db:restore FILE [--force]");
  const env = readCliEnv();
  const file = resolve(env.invokedFrom, positionals[0]!);
  const format = await backupFormatOf(file).catch((error: unknown) => {
    throw new BackupError(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const target = env.databaseUrl ? "postgres" : "pglite";
  if (!format) throw new BackupError(`${file} is not a backup made by pnpm db:backup`);
  if (format !== target) {
    throw new BackupError(
      format === "postgres"
        ? `${file} is a PostgreSQL backup: set DATABASE_URL to the database to restore it into`
        : `${file} is an embedded-database backup: unset DATABASE_URL to restore it into $DATA_DIR/pglite`,
    );
  }
  const started = Date.now();
  if (env.databaseUrl) {
    console.log(`[db] ${await clientVersion("pg_restore")}`);
    await restorePostgres(file, env.databaseUrl, { force: values.force });
  } else {
    await restorePglite(file, pgliteDir(env), { force: values.force });
  }
  console.log(
    `[db] ${target}: restored ${file} (${Date.now() - started} ms); the server applies newer migrations when it starts`,
  );
});

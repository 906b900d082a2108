import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { backupPglite, backupPostgres, clientVersion, defaultBackupName } from "../backup/index";
import { backupsDir, pgliteDir, readCliEnv, runCli } from "./env";

/**
 * `pnpm db:backup [--out FILE]`: a consistent backup of DATABASE_URL
 * (pg_dump, custom format) or of the embedded database in $DATA_DIR/pglite
 * (server stopped). Default file: $DATA_DIR/backups/quad-<kind>-<time>.<ext>.
 */
runCli(async () => {
  const { values } = parseArgs({ options: { out: { type: "string" } }, strict: true });
  const env = readCliEnv();
  const format = env.databaseUrl ? "postgres" : "pglite";
  const file = values.out
    ? resolve(env.invokedFrom, values.out)
    : resolve(backupsDir(env), defaultBackupName(format, new Date()));
  const started = Date.now();
  if (env.databaseUrl) {
    console.log(`[db] ${await clientVersion("pg_dump")}`);
    await backupPostgres(env.databaseUrl, file);
  } else {
    await backupPglite(pgliteDir(env), file);
  }
  const { size } = await stat(file);
  console.log(
    `[db] ${format}: backed up to ${file} (${(size / 1024 / 1024).toFixed(1)} MB, ${Date.now() - started} ms)`,
  );
});

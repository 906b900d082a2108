import { createDatabase } from "../client";
import { migrate } from "../migrate";
import { pgliteDir, readCliEnv, runCli } from "./env";

// `pnpm db:migrate`: applies pending migrations to DATABASE_URL, or to PGlite in $DATA_DIR/pglite.
runCli(async () => {
  const env = readCliEnv();
  const handle = await createDatabase(env.databaseUrl ? { url: env.databaseUrl } : { dataDir: pgliteDir(env) });
  try {
    const { applied } = await migrate(handle.db);
    console.log(`[db] ${handle.kind}: ${applied} migration(s) applied`);
  } finally {
    await handle.close();
  }
});

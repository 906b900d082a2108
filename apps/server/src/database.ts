import path from "node:path";
import { createDatabase, migrate } from "@quad/db";
import { seed } from "@quad/db/seed";
import type { Config } from "./env";
import { removeRetiredTeasers } from "./media/retired-teasers";
import type { MediaStorage } from "./media/storage";

/**
 * Opens the configured database (Postgres when DATABASE_URL is set, else
 * embedded PGlite under $DATA_DIR/pglite), applies migrations (and the one
 * file step beside them: retired teaser images are deleted), and seeds
 * reference data — plus demo students on an empty database when asked.
 */
export async function openDatabase(config: Config, media: MediaStorage, log: (message: string) => void) {
  const started = Date.now();
  if (config.DATABASE_URL) {
    // On a connection of their own, outside the pool's answer timeout: a long migration, or
    // waiting for another process's, is neither a request's statement nor a silent network.
    const migrator = await createDatabase({
      url: config.DATABASE_URL,
      poolSize: 1,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    });
    try {
      await migrate(migrator.db);
    } finally {
      await migrator.close();
    }
  }
  const handle = await createDatabase(
    config.DATABASE_URL
      ? {
          url: config.DATABASE_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
          statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
          answerTimeoutMs: config.DATABASE_ANSWER_TIMEOUT_MS,
        }
      : { dataDir: path.join(config.dataDir, "pglite") },
  );
  if (handle.kind === "pglite") await migrate(handle.db);
  const retired = await removeRetiredTeasers(media);
  if (retired > 0) log(`deleted ${retired} retired vote-card teaser images`);
  await seed(handle.db, { demo: config.seedDemo, media });
  log(`database ready (${handle.kind}) in ${Date.now() - started} ms`);
  return handle;
}

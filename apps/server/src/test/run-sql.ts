import path from "node:path";
import { createDatabase } from "@quad/db";
import { sql } from "drizzle-orm";
import { loadConfig } from "../env";

/**
 * `tsx src/test/run-sql.ts "<statement>"`: runs one SQL statement on the
 * configured database (the embedded one in DATA_DIR unless DATABASE_URL is
 * set). For browser tests that must set up what no endpoint does, such as
 * accounts that are weeks old; with the embedded database the server must
 * be stopped meanwhile (one process per data dir).
 */
async function main() {
  const statement = process.argv[2];
  if (!statement) throw new Error("Usage: tsx src/test/run-sql.ts <statement>");
  const config = await loadConfig();
  const database = await createDatabase(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: path.join(config.dataDir, "pglite") },
  );
  try {
    await database.db.execute(sql.raw(statement));
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MIGRATIONS_FOLDER } from "../migrate";

/** Short fingerprint of the migration folder: cached templates are rebuilt when it changes. */
export function migrationsHash(folder: string = DEFAULT_MIGRATIONS_FOLDER): string {
  const hash = createHash("sha256");
  const files = [
    join("meta", "_journal.json"),
    ...readdirSync(folder)
      .filter((f) => f.endsWith(".sql"))
      .sort(),
  ];
  for (const file of files)
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(folder, file)))
      .update("\0");
  return hash.digest("hex").slice(0, 12);
}

import { open } from "node:fs/promises";

/**
 * The two kinds of backup file, told apart by their first bytes:
 * - "postgres": pg_dump's custom format (starts with "PGDMP");
 * - "pglite": PGlite's dumpDataDir, a gzipped tarball of the data directory.
 */
export type BackupFormat = "postgres" | "pglite";

export const BACKUP_EXTENSION: Record<BackupFormat, string> = { postgres: "pgdump", pglite: "tar.gz" };

export async function backupFormatOf(file: string): Promise<BackupFormat | undefined> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    if (head.toString("latin1") === "PGDMP") return "postgres";
    if (head[0] === 0x1f && head[1] === 0x8b) return "pglite";
    return undefined;
  } finally {
    await handle.close();
  }
}

/** quad-postgres-20261123T210500Z.pgdump: sorts by time. */
export function defaultBackupName(format: BackupFormat, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `quad-${format}-${stamp}.${BACKUP_EXTENSION[format]}`;
}

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** Backups hold every student's phone and votes: readable by their owner only, as is their folder. */
export const BACKUP_FILE_MODE = 0o600;
export const BACKUP_DIR_MODE = 0o700;

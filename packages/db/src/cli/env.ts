import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The only place (with the CLI entry points) that reads process.env. */
export interface CliEnv {
  databaseUrl: string | undefined;
  /** Absolute; relative DATA_DIR values are resolved against the repository root. */
  dataDir: string;
  seedDemo: boolean;
  /** Where the command was typed (pnpm runs scripts in the package's folder): file arguments are relative to it. */
  invokedFrom: string;
}

/** Walks up from `start` to the directory holding pnpm-workspace.yaml. */
export function findRepoRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, "pnpm-workspace.yaml"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No pnpm-workspace.yaml above ${start}`);
    dir = parent;
  }
}

function parseBoolean(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new Error(`${name} must be true or false, got "${value}"`);
}

export function readCliEnv(env: NodeJS.ProcessEnv = process.env): CliEnv {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const dataDir = resolve(findRepoRoot(), env.DATA_DIR?.trim() || ".data");
  const seedDemo = env.SEED_DEMO?.trim() ? parseBoolean("SEED_DEMO", env.SEED_DEMO) : env.NODE_ENV !== "production";
  const invokedFrom = env.INIT_CWD?.trim() || process.cwd();
  return { databaseUrl, dataDir, seedDemo, invokedFrom };
}

/** PGlite lives in $DATA_DIR/pglite, media in $DATA_DIR/media (docs/architecture.md). */
export const pgliteDir = (env: CliEnv) => join(env.dataDir, "pglite");
export const mediaDir = (env: CliEnv) => join(env.dataDir, "media");
/** Where `pnpm db:backup` writes when given no --out. */
export const backupsDir = (env: CliEnv) => join(env.dataDir, "backups");

/** Runs a CLI body, printing one clear line (not a stack) on failure. */
export function runCli(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}

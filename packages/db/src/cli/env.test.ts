import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRepoRoot, readCliEnv } from "./env";

describe("CLI environment", () => {
  it("finds the repository root and resolves DATA_DIR against it", () => {
    const root = findRepoRoot();
    expect(existsSync(join(root, "pnpm-workspace.yaml"))).toBe(true);
    expect(readCliEnv({}).dataDir).toBe(join(root, ".data"));
    expect(readCliEnv({ DATA_DIR: "/srv/quad" }).dataDir).toBe("/srv/quad");
    expect(readCliEnv({ DATA_DIR: "tmp/data" }).dataDir).toBe(join(root, "tmp/data"));
  });

  it("seeds demo students by default outside production", () => {
    expect(readCliEnv({}).seedDemo).toBe(true);
    expect(readCliEnv({ NODE_ENV: "production" }).seedDemo).toBe(false);
    expect(readCliEnv({ NODE_ENV: "production", SEED_DEMO: "true" }).seedDemo).toBe(true);
    expect(readCliEnv({ SEED_DEMO: "0" }).seedDemo).toBe(false);
    expect(() => readCliEnv({ SEED_DEMO: "maybe" })).toThrow("SEED_DEMO must be true or false");
  });

  it("takes file arguments from where the command was typed (pnpm's INIT_CWD), not the package folder", () => {
    expect(readCliEnv({ INIT_CWD: "/srv/ops" }).invokedFrom).toBe("/srv/ops");
    expect(readCliEnv({}).invokedFrom).toBe(process.cwd());
  });

  it("reads DATABASE_URL when set", () => {
    expect(readCliEnv({}).databaseUrl).toBeUndefined();
    expect(readCliEnv({ DATABASE_URL: "postgres://x@h/db" }).databaseUrl).toBe("postgres://x@h/db");
  });
});

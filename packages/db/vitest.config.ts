import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    reporters: ["default", ["json", { outputFile: "reports/vitest.json" }]],
    include: ["src/**/*.test.ts"],
    // The first PGlite test database of a run builds the migrated dump (seconds on 2 cores).
    // Migration tests open file-backed PGlite databases and migrate them step by step: slow on a busy 2-core machine.
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});

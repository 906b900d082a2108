import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    setupFiles: ["src/test/fail-on-console-error.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    reporters: ["default", ["json", { outputFile: "reports/vitest.json" }]],
  },
});

import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    reporters: ["default", ["json", { outputFile: "reports/vitest.json" }]],
  },
});

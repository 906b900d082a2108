import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    reporters: ["default", ["json", { outputFile: "reports/vitest.json" }]],
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});

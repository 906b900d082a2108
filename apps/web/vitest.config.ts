import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

/** Unit and component tests (jsdom). Browser tests live in e2e/ with their own config. */
export default defineConfig({
  plugins: [react()],
  test: {
    reporters: ["default", ["json", { outputFile: "reports/vitest.json" }]],
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test/setup.ts"],
    restoreMocks: true,
    unstubGlobals: true,
    css: { modules: { classNameStrategy: "non-scoped" } },
  },
});

import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Browser tests: the built app served by the real server, driven by Chromium
 * through playwright-core. `pnpm --filter @quad/web test:e2e`.
 * Set E2E_SKIP_BUILD=1 to reuse existing builds, CHROMIUM_PATH for another browser.
 */
export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    reporters: ["default", ["json", { outputFile: "e2e/reports/vitest.json" }]],
    name: "e2e",
    environment: "node",
    include: ["e2e/**/*.e2e.test.ts"],
    globalSetup: ["e2e/global-setup.ts"],
    // One server, one browser per file: run files one after another.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A real page on two shared cores: Swagger UI once drew nothing of its 35 operations within
    // expect.poll's default second in a CI run, and drew them all when run alone.
    expect: { poll: { timeout: 10_000 } },
    teardownTimeout: 30_000,
  },
});

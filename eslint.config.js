import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const processEnv = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: "Read configuration in env.ts only (docs/architecture.md).",
};

export default defineConfig(
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      "**/.turbo/**",
      "**/.data/**",
      "**/coverage/**",
      "**/drizzle/meta/**",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error", "log"] }],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its rejection, and one passed where
    // nothing awaits it (a handler, a condition) runs unobserved.
    files: ["**/*.{ts,tsx,mts}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    // Not under apps/web/tsconfig.json, which the project service would find: their own project.
    files: ["apps/web/e2e/**/*.ts", "apps/web/*.config.ts"],
    languageOptions: { parserOptions: { projectService: false, project: "./apps/web/tsconfig.node.json" } },
  },
  {
    // The service worker runs in a worker, not a page: its own project with the WebWorker library.
    files: ["apps/web/sw/**/*.ts"],
    languageOptions: {
      globals: { ...globals.serviceworker },
      parserOptions: { projectService: false, project: "./apps/web/tsconfig.sw.json" },
    },
  },
  {
    files: ["apps/server/src/**/*.ts", "packages/contracts/src/**/*.ts"],
    ignores: ["apps/server/src/env.ts", "**/*.test.ts"],
    rules: { "no-restricted-syntax": ["error", processEnv] },
  },
  {
    files: ["apps/web/src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, "no-restricted-syntax": ["error", processEnv] },
  },
);

import { defineConfig } from "drizzle-kit";

// `pnpm db:generate` diffs src/schema against drizzle/meta and writes a new SQL migration.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/schema/index.ts",
  out: "./drizzle",
  strict: true,
});

// Bundles the server into dist/bin/server.mjs. Workspace packages (TypeScript
// sources) are bundled in; npm dependencies stay external and load from
// node_modules. Migrations are copied to dist/drizzle, where @quad/db's
// migrate() looks for them relative to the bundle.
import { cp, rm } from "node:fs/promises";
import { build } from "esbuild";

await rm("dist", { recursive: true, force: true });
await build({
  entryPoints: { "bin/server": "src/index.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  plugins: [
    {
      name: "externalize-npm-packages",
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith("@quad/") ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
await cp("../../packages/db/drizzle", "dist/drizzle", { recursive: true });
console.log("built dist/bin/server.mjs");

// The server bundle (decision 0002): an entry bundled into <outdir>/bin/server.mjs.
// Workspace packages (TypeScript sources) are bundled in; npm dependencies stay
// external and load from node_modules. Migrations are copied to <outdir>/drizzle,
// where @quad/db's migrate() looks for them relative to the bundle.
// build.mjs bundles src/index.ts; the bench bundles its own entry (the server plus its routes) the same way.
import { cp, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const MIGRATIONS = fileURLToPath(new URL("../../packages/db/drizzle", import.meta.url));

/** @param {{ entry: string, outdir: string }} options */
export async function bundleServer({ entry, outdir }) {
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { "bin/server": entry },
    outdir,
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
  await cp(MIGRATIONS, `${outdir}/drizzle`, { recursive: true });
}

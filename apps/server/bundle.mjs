// The server bundle (decision 0002): each entry bundled into <outdir>/bin/<name>.mjs,
// self-contained (no shared chunks, so every bundle finds ../drizzle the same way).
// Workspace packages (TypeScript sources) are bundled in; npm dependencies stay
// external and load from node_modules. Migrations are copied to <outdir>/drizzle,
// where @quad/db's migrate() looks for them relative to the bundle.
// build.mjs bundles src/index.ts and the admin:grant command; the bench bundles its own
// entry (the server plus its routes) the same way.
import { cp, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const MIGRATIONS = fileURLToPath(new URL("../../packages/db/drizzle", import.meta.url));

/** @param {{ entries: Record<string, string>, outdir: string }} options name → source file */
export async function bundleServer({ entries, outdir }) {
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [`bin/${name}`, file])),
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

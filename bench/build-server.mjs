// Bundles src/serve.ts (the app plus the bench's ceiling routes) into dist/bin/server.mjs
// with the server's own bundler (apps/server/bundle.mjs, decision 0002): workspace
// packages inlined, npm packages external. Those load, as the server's bundle loads them,
// from apps/server/node_modules (linked as dist/node_modules), so the bench measures the
// same installed (and patched) packages a deployment runs.
import { symlink } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { bundleServer } from "@quad/server/bundle";

const here = (relative) => fileURLToPath(new URL(relative, import.meta.url));
await bundleServer({ entries: { server: here("src/serve.ts") }, outdir: here("dist") });
await symlink("../../apps/server/node_modules", here("dist/node_modules"), "dir");
console.log("built bench/dist/bin/server.mjs");

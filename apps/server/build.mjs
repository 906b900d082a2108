// Bundles the server into dist/bin/server.mjs and the admin:grant command into
// dist/bin/admin-grant.mjs (bundle.mjs says how), so the image runs both.
import { bundleServer } from "./bundle.mjs";

await bundleServer({ entries: { server: "src/index.ts", "admin-grant": "src/cli/admin-grant.ts" }, outdir: "dist" });
console.log("built dist/bin/server.mjs and dist/bin/admin-grant.mjs");

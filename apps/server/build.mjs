// Bundles the server into dist/bin/server.mjs (bundle.mjs says how).
import { bundleServer } from "./bundle.mjs";

await bundleServer({ entry: "src/index.ts", outdir: "dist" });
console.log("built dist/bin/server.mjs");

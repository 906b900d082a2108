#!/usr/bin/env node
// Writes Brotli (.br) and gzip (.gz) copies beside every text asset of the
// built app (run after `vite build`), so the server sends them compressed
// without compressing per request (@fastify/static `preCompressed`). On a
// slow phone network the first page's JavaScript is about a quarter of its
// raw size on the wire, which is what keeps the landing page's LCP in budget.
//
//   node scripts/precompress.mjs [distDir]
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Below this, headers cost more than compression saves. */
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

const distDir = path.resolve(process.argv[2] ?? fileURLToPath(new URL("../dist", import.meta.url)));
let raw = 0;
let brotli = 0;
let count = 0;
for (const file of files(distDir)) {
  if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
  const content = readFileSync(file);
  const br = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  const gz = gzipSync(content, { level: 9 });
  if (br.length < content.length) writeFileSync(`${file}.br`, br);
  if (gz.length < content.length) writeFileSync(`${file}.gz`, gz);
  raw += content.length;
  brotli += Math.min(br.length, content.length);
  count += 1;
}
console.log(`precompressed ${count} files: ${(raw / 1000).toFixed(1)} kB → ${(brotli / 1000).toFixed(1)} kB brotli`);

#!/usr/bin/env node
// First-page weight budgets, measured on the built app (run after
// `vite build`): the JavaScript the first page loads — index.html's module
// scripts, its modulepreloads and everything they import statically — at
// most 100 kB gzip, and index.html plus its stylesheets at most 30 kB gzip.
// Chunks reached only through import() (Firebase, Stripe.js, the cropper,
// the signed-in screens) are listed but not counted. kB = 1,000 bytes, as
// Vite prints them. Exits 1 past a budget.
//
//   node scripts/bundle-size.mjs [distDir]     (pnpm --filter @quad/web size)
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const BUDGETS = { firstPageJsGzip: 100_000, htmlCssGzip: 30_000 };

const gzipSize = (buffer) => gzipSync(buffer, { level: 9 }).length;
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** Attribute values of the tags in index.html that match. */
function attributes(html, tagPattern, attribute) {
  const found = [];
  for (const tag of html.match(tagPattern) ?? []) {
    const value = tag.match(new RegExp(`\\s${attribute}="([^"]+)"`))?.[1];
    if (value) found.push(value);
  }
  return found;
}

/** Static imports (`import … from "./x.js"`, `import "./x.js"`, `export … from`) of a chunk; never import(). */
function staticImports(code) {
  const specifiers = [];
  const pattern = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[^"'();]*?\sfrom\s*)?["']([^"']+\.js)["']/g;
  for (const match of code.matchAll(pattern)) specifiers.push(match[1]);
  return specifiers;
}

export function measure(distDir) {
  const indexPath = path.join(distDir, "index.html");
  if (!existsSync(indexPath)) throw new Error(`${indexPath} is missing: run \`pnpm --filter @quad/web build\` first`);
  const html = readFileSync(indexPath);
  const text = html.toString("utf8");
  const fileOf = (url) => path.join(distDir, url.replace(/^\//, ""));

  const entries = [
    ...attributes(text, /<script\b[^>]*type="module"[^>]*>/g, "src"),
    ...attributes(text, /<link\b[^>]*rel="modulepreload"[^>]*>/g, "href"),
  ];
  const js = new Map();
  const queue = entries.map(fileOf);
  while (queue.length > 0) {
    const file = queue.shift();
    if (js.has(file)) continue;
    const code = readFileSync(file);
    js.set(file, gzipSize(code));
    for (const specifier of staticImports(code.toString("utf8"))) {
      if (specifier.startsWith(".")) queue.push(path.resolve(path.dirname(file), specifier));
    }
  }
  const css = new Map(
    attributes(text, /<link\b[^>]*rel="stylesheet"[^>]*>/g, "href").map((url) => [
      fileOf(url),
      gzipSize(readFileSync(fileOf(url))),
    ]),
  );
  const assets = path.join(distDir, "assets");
  const lazy = readdirSync(assets)
    .filter((name) => name.endsWith(".js") && !js.has(path.join(assets, name)))
    .map((name) => [path.join(assets, name), gzipSize(readFileSync(path.join(assets, name)))]);

  const sum = (map) => [...map.values()].reduce((a, b) => a + b, 0);
  return {
    js,
    css,
    lazy: new Map(lazy),
    html: gzipSize(html),
    firstPageJsGzip: sum(js),
    htmlCssGzip: gzipSize(html) + sum(css),
  };
}

function main() {
  const distDir = path.resolve(process.argv[2] ?? fileURLToPath(new URL("../dist", import.meta.url)));
  const result = measure(distDir);
  const rel = (file) => path.relative(distDir, file);
  console.log("First page (gzip):");
  for (const [file, size] of result.js) console.log(`  ${kB(size).padStart(9)}  ${rel(file)}`);
  console.log(`  ${kB(result.html).padStart(9)}  index.html`);
  for (const [file, size] of result.css) console.log(`  ${kB(size).padStart(9)}  ${rel(file)}`);
  console.log("Loaded later (gzip, not counted):");
  for (const [file, size] of [...result.lazy].sort((a, b) => b[1] - a[1]))
    console.log(`  ${kB(size).padStart(9)}  ${rel(file)}`);
  const checks = [
    ["first page JavaScript", result.firstPageJsGzip, BUDGETS.firstPageJsGzip],
    ["HTML + CSS", result.htmlCssGzip, BUDGETS.htmlCssGzip],
  ];
  let failed = false;
  for (const [name, size, budget] of checks) {
    const ok = size <= budget;
    failed ||= !ok;
    console.log(`${ok ? "ok  " : "FAIL"} ${name}: ${kB(size)} gzip (budget ${kB(budget)})`);
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

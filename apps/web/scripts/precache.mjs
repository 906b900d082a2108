#!/usr/bin/env node
// Injects the service worker's precache list (Workbox's injectManifest) once
// the build has written every file: run after the prerender, before the
// precompress. Precached: the app shell (index.html, app.html), hashed assets,
// icons and the manifest. Never the API (nothing under /api is a file here),
// never source maps or the share card.
//
//   node scripts/precache.mjs
import { renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { injectManifest } from "workbox-build";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const swDest = path.join(dist, "service-worker.js");
// Workbox refuses to read and write one file: the compiled worker moves out first.
const swSrc = path.join(tmpdir(), `quad-sw-${process.pid}.js`);
renameSync(swDest, swSrc);
try {
  const { count, size, warnings } = await injectManifest({
    swSrc,
    swDest,
    globDirectory: dist,
    globPatterns: [
      "index.html",
      "app.html",
      "assets/**/*.{js,css,svg,png,woff2}",
      "icons/*.png",
      "favicon.svg",
      "apple-touch-icon.png",
      "manifest.webmanifest",
    ],
    // Hashed file names are their own revision.
    dontCacheBustURLsMatching: /^assets\//,
    // Firebase and Stripe load only where configured, and never offline.
    globIgnores: ["assets/firebase-*.js", "assets/stripe-*.js"],
    maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
  });
  for (const warning of warnings) console.warn(`precache: ${warning}`);
  console.log(`precache: ${count} files, ${(size / 1000).toFixed(1)} kB, listed in dist/service-worker.js`);
} finally {
  rmSync(swSrc, { force: true });
}

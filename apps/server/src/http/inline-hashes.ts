import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** SHA-256 (base64) of each inline `<script>` and `<style>` element's text. */
export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

// Our own build's output, not arbitrary HTML: elements without a src, never nested.
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");
const hashesOf = (html: string, pattern: RegExp) =>
  [...html.matchAll(pattern)]
    .map((m) => m[1]!)
    .filter(Boolean)
    .map(sha256);

/** Hashes what one HTML document runs inline. */
export function inlineHashes(html: string): InlineHashes {
  return { scripts: hashesOf(html, INLINE_SCRIPT), styles: hashesOf(html, INLINE_STYLE) };
}

/**
 * Hashes the inline code of the built web app's HTML files (the prerender
 * step writes a small script and style into index.html), read once at start,
 * so the CSP allows exactly what this build ships and nothing injected later.
 */
export function builtInlineHashes(distDir: string | undefined): InlineHashes {
  const all: InlineHashes = { scripts: [], styles: [] };
  if (!distDir) return all;
  for (const name of ["index.html", "app.html"]) {
    const file = path.join(distDir, name);
    if (!existsSync(file)) continue;
    const found = inlineHashes(readFileSync(file, "utf8"));
    all.scripts.push(...found.scripts);
    all.styles.push(...found.styles);
  }
  return { scripts: [...new Set(all.scripts)], styles: [...new Set(all.styles)] };
}

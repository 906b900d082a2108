// Checks that every dependency patched through pnpm-workspace.yaml's
// patchedDependencies ships patched in a pnpm node_modules folder (the
// Dockerfile runs it on the production dependencies it copies into the image):
// each line a patch adds must be in the installed file. Exits 1 naming the
// package and file otherwise. Patched packages that are not in the folder at
// all (dev-only ones) are listed and skipped.
//
//   node deploy/check-shipped-patches.mjs <node_modules> [pnpm-workspace.yaml]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const [modulesDir, workspaceFile = "pnpm-workspace.yaml"] = process.argv.slice(2);
if (!modulesDir) {
  console.error("usage: check-shipped-patches.mjs <node_modules> [pnpm-workspace.yaml]");
  process.exit(2);
}
const root = path.dirname(path.resolve(workspaceFile));
const store = path.join(modulesDir, ".pnpm");

// The patchedDependencies block: indented `key: path` lines up to the next top-level key.
const yaml = readFileSync(workspaceFile, "utf8");
const block = /^patchedDependencies:[^\n]*\n((?:[ \t]+[^\n]*\n|[ \t]*\n)*)/m.exec(yaml)?.[1] ?? "";
const entries = [
  ...block.matchAll(/^[ \t]+(["']?)([^"'#\n]+?)\1[ \t]*:[ \t]*(["']?)([^"'#\n]+?)\3[ \t]*(?:#.*)?$/gm),
].map((m) => ({ key: m[2], patch: m[4] }));
if (entries.length === 0) {
  console.log("no patchedDependencies in " + workspaceFile);
  process.exit(0);
}

let failed = 0;
for (const { key, patch } of entries) {
  // "name@version", "@scope/name@range" or a bare name (every version).
  const at = key.lastIndexOf("@");
  const name = at > 0 ? key.slice(0, at) : key;
  const version = at > 0 ? key.slice(at + 1) : "";
  const exact = /^\d+\.\d+\.\d+\S*$/.test(version);
  const prefix = name.replace("/", "+") + "@" + (exact ? version : "");
  const dirs = existsSync(store)
    ? readdirSync(store).filter(
        (d) => d.startsWith(prefix) && (!exact || d.length === prefix.length || d[prefix.length] === "_"),
      )
    : [];
  if (dirs.length === 0) {
    console.log(`not shipped: ${key}`);
    continue;
  }
  // Lines each file of the patch adds ("+" lines, not the "+++" header).
  const files = new Map();
  let current;
  for (const line of readFileSync(path.join(root, patch), "utf8").split("\n")) {
    const header = /^\+\+\+ b\/(.+)$/.exec(line);
    if (header) files.set((current = header[1]), []);
    else if (current && line.startsWith("+") && line.slice(1).trim()) files.get(current).push(line.slice(1).trimEnd());
  }
  for (const dir of dirs) {
    const before = failed;
    const pkgDir = path.join(store, dir, "node_modules", name);
    for (const [file, added] of files) {
      const target = path.join(pkgDir, file);
      const have = existsSync(target)
        ? new Set(
            readFileSync(target, "utf8")
              .split("\n")
              .map((l) => l.trimEnd()),
          )
        : null;
      const missing = have ? added.filter((l) => !have.has(l)) : added;
      if (missing.length > 0) {
        failed++;
        console.error(
          `UNPATCHED: ${key} (${patch}) in ${dir}: ${file} ${have ? `lacks ${missing.length} added line(s), e.g. ${JSON.stringify(missing[0])}` : "is missing"}`,
        );
      }
    }
    if (failed === before) console.log(`patched: ${key} (${files.size} file(s)) in ${dir}`);
  }
}
process.exit(failed ? 1 : 0);

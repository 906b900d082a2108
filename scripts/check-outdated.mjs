// Checks that `pnpm outdated -r` lists nothing but the holds recorded in
// docs/decisions/0007-patched-dependencies.md ("Holds" table), each with the
// newest release it was looked at against. Fails on a dependency that is
// behind without a recorded hold, and on a hold whose package has released
// since (look at the new release, then bump it or update the row). Asks the
// npm registry, so it is run by hand (`pnpm deps:check`), not by `pnpm test`:
// a release upstream must not fail a build.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const HOLDS_FILE = "docs/decisions/0007-patched-dependencies.md";

/** Rows of the holds table: | `name` | held at | newest looked at | … */
function parseHolds(markdown) {
  const section = markdown.split(/^### Holds$/m)[1]?.split(/^#{2,3} /m)[0] ?? "";
  return new Map(
    [...section.matchAll(/^\|\s*`([^`]+)`\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|/gm)].map((m) => [
      m[1],
      { heldAt: m[2].trim(), newest: m[3].trim() },
    ]),
  );
}

const holds = parseHolds(readFileSync(HOLDS_FILE, "utf8"));
let out;
try {
  out = execFileSync("pnpm", ["outdated", "-r", "--format", "json"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
} catch (error) {
  // pnpm outdated exits 1 when anything is outdated; its JSON is still on stdout.
  out = error.stdout;
}
// pnpm writes its warnings (a slow registry request) to stdout too, before the JSON.
const json = out.slice(Math.max(0, out.search(/^\{/m)));
const outdated = JSON.parse(json.trim() || "{}");
const problems = [];
for (const [name, { current, latest }] of Object.entries(outdated)) {
  const hold = holds.get(name);
  if (!hold) problems.push(`${name} ${current} → ${latest}: behind, and no hold is recorded`);
  else if (hold.newest !== latest)
    problems.push(`${name}: held against ${hold.newest}, but ${latest} is out: look at it again`);
  else console.log(`held  ${name} ${current} (newest ${latest})`);
}
for (const [name] of holds)
  if (!(name in outdated)) problems.push(`${name}: recorded as held, but up to date: drop the row`);
for (const problem of problems) console.error(`FAIL  ${problem}`);
process.exit(problems.length ? 1 : 0);

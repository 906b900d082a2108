// Adds up the vitest JSON reports every package wrote and prints one plain
// "N passed, N failed" line, so a reader of the CI log sees the whole count.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import path from "node:path";

const roots = ["apps", "packages"].flatMap((dir) =>
  existsSync(dir) ? readdirSync(dir).map((name) => path.join(dir, name)) : [],
);
const reports = roots
  .flatMap((pkg) => [path.join(pkg, "reports"), path.join(pkg, "e2e", "reports")])
  .filter((dir) => existsSync(dir))
  .flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".json"))
      .map((f) => path.join(dir, f)),
  );

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of reports) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
if (reports.length === 0) {
  console.log("no test reports found");
  process.exit(1);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The repository stands on its own: no comment or test name may point at
 * files outside it (the old design notes and spec) or at issue numbers.
 * Cite docs/ instead.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const outside = /\.\.\/shared|DESIGN\.md|STYLE\.md|product-spec|spec §|\bissue #?\d+|\bIssue #?\d+/;
const sources = /\.(ts|tsx|js|mjs|cjs|sh|yml|yaml|conf|css)$|Dockerfile$|^\.ci\//;

describe("repository pointers", () => {
  it("no source file points outside the repository", () => {
    const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((f) => f && sources.test(f) && !f.startsWith("docs/") && !f.endsWith("repo-pointers.test.ts"));
    const hits: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(path.join(root, file), "utf8");
      } catch {
        continue;
      }
      text.split("\n").forEach((line, i) => {
        if (outside.test(line)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });
});

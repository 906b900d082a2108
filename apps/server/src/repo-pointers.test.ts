import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The repository stands on its own: no comment, test name or doc may point at
 * files outside it (the old design notes and spec, its numbered sections) or
 * at issue numbers. Say the rule, or cite docs/ instead.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const outside = [
  /\.\.\/shared|DESIGN\.md|STYLE\.md|product-spec/,
  /\bissue #?\d+/i,
  // "Spec §5", "spec §", "Spec§": in any case, with or without a space.
  /spec\s*§/i,
  // A bare "§4" is the spec's numbering too; an RFC's section ("RFC 8291 §3.4") is not.
  /(?<!\bRFC \d+ )§\s*\d/,
];
const sources = /\.(ts|tsx|js|mjs|cjs|sh|yml|yaml|conf|css|sql|md)$|Dockerfile$|^\.ci\//;

describe("repository pointers", () => {
  it("no source file or doc points outside the repository", () => {
    const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((f) => f && sources.test(f) && !f.endsWith("repo-pointers.test.ts"));
    const hits: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(path.join(root, file), "utf8");
      } catch {
        continue;
      }
      text.split("\n").forEach((line, i) => {
        if (outside.some((pattern) => pattern.test(line))) hits.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });
});

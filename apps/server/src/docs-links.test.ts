import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { anchorOf, headingAnchors } from "./test/doc-headings";
import { commentReferences, markdownReferences, type DocReference } from "./test/doc-references";

/**
 * Docs that stay true: every link and `#anchor` in the markdown, and every
 * docs path a code comment cites (with its quoted heading, as in
 * `docs/architecture.md "Jobs"`), names a file the repository holds and a
 * heading that file has, slugged as GitHub slugs it.
 */
const root = path.resolve(import.meta.dirname, "../../..");
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" });
const tracked = git("ls-files").split("\n").filter(Boolean);
const files = new Set(tracked);
const folders = new Set(
  tracked.flatMap((f) =>
    f
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join("/")),
  ),
);
/** The decision template's placeholders. */
const placeholder = /NNNN/;

/** Where a reference lands in the repository, or the paths it was looked for at. */
function resolve(ref: DocReference): { found?: string; tried: string[] } {
  const fromFile = path.posix.normalize(path.posix.join(path.posix.dirname(ref.file), ref.target));
  const fromRoot = path.posix.normalize(ref.target.replace(/^\//, ""));
  const tried =
    ref.target === ""
      ? [ref.file]
      : ref.target.startsWith("/")
        ? [fromRoot]
        : ref.linked
          ? [fromFile]
          : [fromFile, fromRoot];
  const found = tried.map((p) => p.replace(/\/$/, "") || ".").find((p) => files.has(p) || folders.has(p) || p === ".");
  return { found, tried };
}

/** Of the given paths, those git ignores: generated files (a bench report) a doc may name before they exist. */
function ignored(paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  try {
    return new Set(
      execFileSync("git", ["check-ignore", "--stdin"], { cwd: root, input: paths.join("\n"), encoding: "utf8" }).split(
        "\n",
      ),
    );
  } catch (error) {
    // Exit status 1: none is ignored.
    return new Set(String((error as { stdout?: string }).stdout ?? "").split("\n"));
  }
}

function references(): DocReference[] {
  const read = (f: string) => readFileSync(path.join(root, f), "utf8");
  return tracked.flatMap((f) => {
    if (f.endsWith(".md")) return markdownReferences(f, read(f));
    if (f === "apps/server/src/docs-links.test.ts") return [];
    return commentReferences(f, read(f));
  });
}

function broken(refs: DocReference[]): string[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (f: string) => {
    if (!anchors.has(f)) anchors.set(f, headingAnchors(readFileSync(path.join(root, f), "utf8")));
    return anchors.get(f)!;
  };
  const unresolved = refs.map((ref) => ({ ref, ...resolve(ref) })).filter((r) => !placeholder.test(r.ref.target));
  const generated = ignored(unresolved.filter((r) => !r.found && !r.ref.linked).flatMap((r) => r.tried));
  const problems = new Set<string>();
  for (const { ref, found, tried } of unresolved) {
    const at = `${ref.file}:${ref.line}: ${ref.target}${ref.anchor ? `#${ref.anchor}` : ""}${ref.heading ? ` "${ref.heading}"` : ""}`;
    if (!found) {
      if (!tried.some((p) => generated.has(p))) problems.add(`${at}: no such file (${tried.join(" or ")})`);
      continue;
    }
    if (!found.endsWith(".md")) continue;
    if (ref.anchor !== undefined && !anchorsOf(found).has(ref.anchor))
      problems.add(`${at}: ${found} has no heading #${ref.anchor}`);
    if (ref.heading !== undefined && !anchorsOf(found).has(anchorOf(ref.heading)))
      problems.add(`${at}: ${found} has no heading "${ref.heading}" (#${anchorOf(ref.heading)})`);
  }
  return [...problems];
}

describe("documentation links", () => {
  it("every link, anchor and cited section names a file and heading the repository has", () => {
    const refs = references();
    // Guards against a scanner that silently finds nothing.
    expect(refs.length).toBeGreaterThan(200);
    const problems = broken(refs);
    expect(problems, `${problems.length} broken links, as file:line: link: why`).toEqual([]);
  });
});

describe("what the link check reads", () => {
  it("slugs headings as GitHub does, numbering repeats and skipping fenced code", () => {
    const doc = [
      "# Operations",
      "## A quiet VM again: where each gap comes from (2026-11-26 02:30–03:30 UTC)",
      "### PostgreSQL (`DATABASE_URL` set)",
      "```sh",
      "# not a heading",
      "```",
      "## Jobs",
      "## Jobs",
    ].join("\n");
    expect([...headingAnchors(doc)]).toEqual([
      "operations",
      "a-quiet-vm-again-where-each-gap-comes-from-2026-11-26-02300330-utc",
      "postgresql-database_url-set",
      "jobs",
      "jobs-1",
    ]);
    expect(anchorOf("Several\n processes")).toBe("several-processes");
  });

  it("finds a comment's cited sections, wrapped or listed, but not a quotation after a colon or a path in code", () => {
    const source = [
      "/**",
      ' * Sign-in (docs/product.md "Signing',
      ' * up and signing in", "Limits" and "Errors"), see docs/architecture.md#jobs.',
      ' * Quoted, not cited: docs/product.md: "a real end".',
      " */",
      'const readme = "docs/nowhere.md";',
      "-- docs/decisions/0018-web-push-and-the-service-worker.md",
    ].join("\n");
    const cited = (refs: DocReference[]) => refs.map((r) => [r.line, r.target, r.anchor ?? r.heading ?? ""]);
    expect(cited(commentReferences("x.ts", source))).toEqual([
      [2, "docs/product.md", "Signing up and signing in"],
      [2, "docs/product.md", "Limits"],
      [2, "docs/product.md", "Errors"],
      [3, "docs/architecture.md", "jobs"],
      [4, "docs/product.md", ""],
    ]);
    expect(cited(commentReferences("x.sql", source))).toContainEqual([
      7,
      "docs/decisions/0018-web-push-and-the-service-worker.md",
      "",
    ]);
  });

  it("reads markdown links and named paths outside fenced code", () => {
    const doc = [
      "See [budgets](../performance.md#anchors-and-budgets) and `decisions/0015-backups.md`.",
      "```",
      "[no](link.md)",
      "```",
    ].join("\n");
    expect(markdownReferences("docs/x.md", doc)).toEqual([
      { file: "docs/x.md", line: 1, target: "../performance.md", anchor: "anchors-and-budgets", linked: true },
      { file: "docs/x.md", line: 1, target: "decisions/0015-backups.md", linked: false },
    ]);
  });
});

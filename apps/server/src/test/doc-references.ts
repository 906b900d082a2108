import { proseLines } from "./doc-headings";

/** One place a file points at a repository file, and at which section of it. */
export interface DocReference {
  file: string;
  line: number;
  /** The path as written, without its anchor. */
  target: string;
  /** From `#anchor`. */
  anchor?: string;
  /** From a quoted heading right after the path: `docs/architecture.md "Jobs"`. */
  heading?: string;
  /**
   * A markdown link resolves from its file's folder, as GitHub does; a path
   * named in prose or a comment may also be written from the repository root.
   */
  linked: boolean;
}

/** A quoted heading, which a comment may wrap onto its next line. */
const quoted = String.raw`"[^"\n]+(?:\n[^"\n]+)?"`;
/** Between a path and its quoted headings, or between two of them: a space, a comma, "and" or "or", and at most one line break. */
const gap = String.raw`(?:,|,? and|,? or)?[ \t]*\n?[ \t]*`;
/**
 * A path that ends in .md, or anything under docs/, then an optional #anchor,
 * then optional quoted headings: `docs/architecture.md "Jobs"`,
 * `docs/product.md, "Limits" and "Errors"`. Not part of a longer path, not a
 * markdown link's address. After a colon a quotation is text, not a heading.
 */
const mention = new RegExp(
  String.raw`(?<![\w@./-]|\]\()((?:\.\.?\/)*(?:[\w.-]+\/)*[\w.-]+\.md\b|docs(?:\/[\w.-]+)+\/?)(?:#([\w-]+))?((?:${gap}${quoted})+)?`,
  "g",
);
/** A markdown link's address (an optional title after it): `[text](decisions/0009-x.md#why)`. */
const link = /\]\(\s*<?([^)\s>]*)>?(?:\s+["'(][^)]*)?\)/g;
/** A reference-style link's definition: `[name]: address`. */
const definition = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)/gm;
/** http:, mailto:, //host: not the repository's. */
const external = /^([a-z][a-z\d+.-]*:|\/\/)/i;

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function splitAnchor(address: string): { target: string; anchor?: string } {
  const hash = address.indexOf("#");
  if (hash === -1) return { target: address };
  return { target: address.slice(0, hash), anchor: decodeURIComponent(address.slice(hash + 1)) };
}

/** One reference per quoted heading, or one for the path alone. */
function mentionsIn(file: string, text: string): DocReference[] {
  return [...text.matchAll(mention)].flatMap((m) => {
    const ref = { file, line: lineAt(text, m.index), target: m[1]!.replace(/[.,]+$/, ""), linked: false };
    const withAnchor = m[2] ? { ...ref, anchor: m[2] } : ref;
    const headings = [...(m[3] ?? "").matchAll(/"([^"]+)"/g)].map((h) => h[1]!.replace(/\s+/g, " ").trim());
    return headings.length === 0 ? [withAnchor] : headings.map((heading) => ({ ...withAnchor, heading }));
  });
}

/** Links, link definitions and named paths in a markdown file's prose (fenced code is skipped). */
export function markdownReferences(file: string, markdown: string): DocReference[] {
  const prose = proseLines(markdown).join("\n");
  const links = [...prose.matchAll(link), ...prose.matchAll(definition)]
    .filter((m) => m[1] && !external.test(m[1]))
    .map((m) => ({ file, line: lineAt(prose, m.index), ...splitAnchor(m[1]!), linked: true }));
  return [...links, ...mentionsIn(file, prose)];
}

type Syntax = { line: string; block?: [string, string] };
const cLike: Syntax = { line: "//", block: ["/*", "*/"] };

function syntaxOf(file: string): Syntax | undefined {
  if (/\.(ts|tsx|js|mjs|cjs|css)$/.test(file)) return cLike;
  if (/\.sql$/.test(file)) return { line: "--", block: ["/*", "*/"] };
  if (/\.(sh|ya?ml|conf)$|(^|\/)Dockerfile$|^\.ci\//.test(file)) return { line: "#" };
  return undefined;
}

/**
 * Each line's comment text, "" where the line has none, so that a match maps
 * back to its line. Line by line, without a parser: a comment marker inside a
 * string counts as a comment, which at worst checks a path that was no link.
 */
export function commentLines(file: string, text: string): string[] | undefined {
  const syntax = syntaxOf(file);
  if (!syntax) return undefined;
  let inBlock = false;
  return text.split("\n").map((line) => {
    let out = "";
    let i = 0;
    while (i < line.length) {
      if (inBlock) {
        const end = line.indexOf(syntax.block![1], i);
        // A JSDoc line's leading "*" is layout, not text.
        out += ` ${line.slice(i, end === -1 ? undefined : end).replace(/^\s*\*+(?!\/)/, "")}`;
        if (end === -1) break;
        inBlock = false;
        i = end + syntax.block![1].length;
        continue;
      }
      const lineAt = line.indexOf(syntax.line, i);
      const blockAt = syntax.block ? line.indexOf(syntax.block[0], i) : -1;
      if (lineAt !== -1 && (blockAt === -1 || lineAt < blockAt)) {
        out += ` ${line.slice(lineAt + syntax.line.length)}`;
        break;
      }
      if (blockAt === -1) break;
      inBlock = true;
      i = blockAt + syntax.block![0].length;
    }
    return out;
  });
}

/** Paths to repository files named in a source file's comments. */
export function commentReferences(file: string, text: string): DocReference[] {
  const lines = commentLines(file, text);
  return lines ? mentionsIn(file, lines.join("\n")) : [];
}

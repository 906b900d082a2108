import GithubSlugger, { slug } from "github-slugger";

/** A markdown file's lines with fenced code blocks blanked (line numbers stay), so a `# comment` in a shell block is no heading. */
export function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split("\n").map((line) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opening) {
      fence = opening;
      return "";
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replace(/[`~]/g, "") === "")
        fence = undefined;
      return "";
    }
    return line;
  });
}

/** What GitHub renders of a heading before it slugs it: link text without its address, no HTML tags. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/\s+#+\s*$/, "");
}

/** The anchors GitHub gives a markdown file's headings: slugged in order, a repeated one suffixed -1, -2, … */
export function headingAnchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading !== undefined) anchors.add(slugger.slug(headingText(heading)));
  }
  return anchors;
}

/** The anchor a quoted heading stands for: `"Several processes"` → `several-processes`. */
export function anchorOf(heading: string): string {
  return slug(headingText(heading.replace(/\s+/g, " ").trim()));
}

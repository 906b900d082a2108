import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Modules import each other in one direction only: a loop between two
 * folders means neither can be read, tested or moved without the other.
 * Tests may reach across (a test of rounds may grant a moderator).
 */
const here = import.meta.dirname;
const modules = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function importsOf(module: string): Set<string> {
  const imported = new Set<string>();
  for (const file of readdirSync(join(here, module), { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
    for (const [, other] of readFileSync(join(here, module, file), "utf8").matchAll(/from "\.\.\/([\w-]+)\//g)) {
      if (other !== module && modules.includes(other!)) imported.add(other!);
    }
  }
  return imported;
}

/** A loop in the graph as a path "a → b → a", or null. */
function findLoop(graph: Map<string, Set<string>>): string | null {
  const done = new Set<string>();
  const walk = (node: string, path: string[]): string | null => {
    if (path.includes(node)) return [...path.slice(path.indexOf(node)), node].join(" → ");
    if (done.has(node)) return null;
    for (const next of graph.get(node) ?? []) {
      const loop = walk(next, [...path, node]);
      if (loop) return loop;
    }
    done.add(node);
    return null;
  };
  for (const node of graph.keys()) {
    const loop = walk(node, []);
    if (loop) return loop;
  }
  return null;
}

describe("module folders", () => {
  const graph = new Map(modules.map((module) => [module, importsOf(module)]));

  it("import each other without loops", () => {
    expect(findLoop(graph)).toBeNull();
  });

  it("finds a loop when there is one (the check itself)", () => {
    const looped = new Map(graph);
    looped.set("schools", new Set([...(graph.get("schools") ?? []), "rounds"]));
    expect(findLoop(looped)).toMatch(/rounds → schools → rounds|schools → rounds → schools/);
  });

  it("each hold more than a router", () => {
    for (const module of modules) {
      const files = readdirSync(join(here, module)).filter((file) => !file.endsWith(".test.ts"));
      expect(files, module).not.toEqual(["router.ts"]);
    }
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLE_NAMES } from "./env";

interface TurboTask {
  env?: string[];
  passThroughEnv?: string[];
}
interface TurboJson {
  globalEnv?: string[];
  globalPassThroughEnv?: string[];
  tasks: Record<string, TurboTask>;
}

const turbo = JSON.parse(readFileSync(new URL("../../../turbo.json", import.meta.url), "utf8")) as TurboJson;

/** A turbo.json entry matches a name exactly or, ending in `*`, by prefix. */
const covers = (pattern: string, name: string) =>
  pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name;

/** What the server process sees when turbo runs `task` in strict env mode. */
function declaredFor(task: string): string[] {
  const own = turbo.tasks[task] ?? {};
  return [
    ...(turbo.globalEnv ?? []),
    ...(turbo.globalPassThroughEnv ?? []),
    ...(own.env ?? []),
    ...(own.passThroughEnv ?? []),
  ];
}

describe("turbo.json declares every server variable", () => {
  // `pnpm dev` and `pnpm test` run through turbo; anything undeclared is silently unset there.
  it.each(["dev", "test"])("under turbo run %s", (task) => {
    const declared = declaredFor(task);
    const hidden = ENV_VARIABLE_NAMES.filter((name) => !declared.some((pattern) => covers(pattern, name)));
    expect(hidden).toEqual([]);
  });

  it("the list is the schema's, not empty", () => {
    expect(ENV_VARIABLE_NAMES).toEqual(
      expect.arrayContaining(["DATABASE_URL", "JWT_SECRET", "DATABASE_POOL_SIZE", "TRUST_PROXY"]),
    );
  });
});

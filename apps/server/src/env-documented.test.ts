import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLE_NAMES } from "./env";

const operations = readFileSync(new URL("../../../docs/operations.md", import.meta.url), "utf8");
/** The "Configuration" section: from its heading to the next one of its level. */
const configuration = operations.slice(
  operations.indexOf("\n## Configuration\n"),
  operations.indexOf("\n## ", operations.indexOf("\n## Configuration\n") + 1),
);

describe("every variable the server reads is documented", () => {
  it.each(ENV_VARIABLE_NAMES)("%s is in docs/operations.md's Configuration table", (name) => {
    expect(configuration).toMatch(new RegExp(`^\\|[^\\n]*\`${name}\``, "m"));
  });
});

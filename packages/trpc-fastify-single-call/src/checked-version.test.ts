import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHECKED_TRPC_SERVER } from "./checked-version";

/** The installed @trpc/server's package.json version (the package does not export its package.json). */
function installedTrpcServerVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve("@trpc/server"));
  for (;;) {
    const manifest = path.join(dir, "package.json");
    try {
      const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version: string };
      if (name === "@trpc/server") return version;
    } catch {
      // no package.json at this level
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("@trpc/server's package.json not found");
    dir = parent;
  }
}

const parts = (version: string) => version.split(/[.+-]/).slice(0, 3).map(Number);
/** a < b, comparing major.minor.patch numerically (missing parts count as 0). */
const below = (a: string, b: string) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
};

describe("the installed @trpc/server", () => {
  it(`is one this package was checked against (>= ${CHECKED_TRPC_SERVER.from}, < ${CHECKED_TRPC_SERVER.belowMinor}); otherwise re-check and widen it (README)`, () => {
    const version = installedTrpcServerVersion();
    expect(/^\d+\.\d+\.\d+$/.test(version), `${version} is a plain release`).toBe(true);
    expect(below(version, CHECKED_TRPC_SERVER.from), `${version} >= ${CHECKED_TRPC_SERVER.from}`).toBe(false);
    expect(below(version, CHECKED_TRPC_SERVER.belowMinor), `${version} < ${CHECKED_TRPC_SERVER.belowMinor}`).toBe(true);
  });

  it("the comparison: 11.19.x inside, 11.18.x and 11.20.0 outside", () => {
    expect(below("11.19.3", "11.20")).toBe(true);
    expect(below("11.20.0", "11.20")).toBe(false);
    expect(below("11.18.9", "11.19.0")).toBe(true);
    expect(below("12.0.0", "11.20")).toBe(false);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

/** Link previews take only absolute addresses; the build writes them from PUBLIC_URL (vite.config.ts). */
describe("share tags", () => {
  const html = read("../index.html");
  const content = (attribute: string) => new RegExp(`<meta ${attribute} content="([^"]*)"`).exec(html)?.[1];

  it("name the page and its image by the public address", () => {
    expect(content('property="og:url"')).toBe("%PUBLIC_URL%/");
    expect(content('property="og:image"')).toBe("%PUBLIC_URL%/og-image.png");
    expect(content('name="twitter:image"')).toBe("%PUBLIC_URL%/og-image.png");
  });

  it("are built with PUBLIC_URL in the build's environment (turbo passes only what a task declares)", () => {
    const turbo = JSON.parse(read("../../../turbo.json")) as { tasks: { build: { env?: string[] } } };
    expect(turbo.tasks.build.env).toContain("PUBLIC_URL");
    expect(read("../vite.config.ts")).toContain('replaceAll("%PUBLIC_URL%", publicUrl)');
  });
});

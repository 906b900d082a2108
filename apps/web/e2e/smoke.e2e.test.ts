import { POLICY_EFFECTIVE_DATE, POLICY_UPDATED_DATE } from "@quad/contracts";
import { describe, expect, inject, it } from "vitest";
import { saveScreenshot, useBrowser, type OpenedPage } from "./browser";

const baseURL = inject("baseURL");

describe("smoke", () => {
  const chromium = useBrowser();

  async function open(kind: "mobile" | "desktop", path: string): Promise<OpenedPage> {
    return chromium.open(kind, `${baseURL}${path}`);
  }

  it("/ renders the app frame", async () => {
    for (const kind of ["mobile", "desktop"] as const) {
      const { page, errors } = await open(kind, "/");
      await page.getByRole("heading", { level: 1, name: /vote on your classmates/i }).waitFor();
      expect(await page.title()).toBe("Quad");
      expect(await page.getByRole("link", { name: "Join to start voting" }).isVisible()).toBe(true);
      expect(
        await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Sign up" }).isVisible(),
      ).toBe(true);
      await saveScreenshot(page, `landing-${kind}`);
      expect(errors).toEqual([]);
    }
  });

  it("serves a real robots.txt, the icons, and share tags whose image exists", async () => {
    const robots = await fetch(`${baseURL}/robots.txt`);
    expect(robots.headers.get("content-type")).toMatch(/^text\/plain/);
    const rules = await robots.text();
    expect(rules).toMatch(/^User-agent: \*$/m);
    expect(rules).toMatch(/^Disallow: \/api\/$/m);

    const { page, errors } = await open("mobile", "/");
    const meta = async (selector: string) => page.locator(selector).getAttribute("content");
    expect(await meta('meta[property="og:title"]')).toBeTruthy();
    expect(await meta('meta[property="og:description"]')).toBeTruthy();
    expect(await meta('meta[name="twitter:card"]')).toBe("summary_large_image");
    const shareImage = (await meta('meta[property="og:image"]'))!;
    expect(await meta('meta[name="twitter:image"]')).toBe(shareImage);
    // PNGs of the sizes the tags and iOS expect (width and height are bytes 16–23 of a PNG).
    const pngSize = async (path: string) => {
      const response = await fetch(new URL(path, baseURL));
      expect(response.headers.get("content-type")).toBe("image/png");
      const bytes = Buffer.from(await response.arrayBuffer());
      return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    };
    // Absolute, as link previews need (from PUBLIC_URL at build time); the file itself is this server's.
    expect(shareImage).toMatch(/^https?:\/\/[^/]+\/og-image\.png$/);
    expect(await meta('meta[property="og:url"]')).toMatch(/^https?:\/\/[^/]+\/$/);
    expect(await pngSize(new URL(shareImage).pathname)).toEqual([1200, 630]);
    expect(await pngSize((await page.locator('link[rel="apple-touch-icon"]').getAttribute("href"))!)).toEqual([
      180, 180,
    ]);
    const favicon = await fetch(new URL((await page.locator('link[rel="icon"]').getAttribute("href"))!, baseURL));
    expect(favicon.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(errors).toEqual([]);
  });

  it("/terms shows the Privacy Policy and Terms and links back to /", async () => {
    for (const kind of ["mobile", "desktop"] as const) {
      const { page, errors } = await open(kind, "/terms");
      await page.getByRole("heading", { level: 1, name: /privacy policy and terms and conditions/i }).waitFor();
      const text = await page.locator("main").innerText();
      for (const expected of [
        "Privacy Policy",
        "Terms and Conditions",
        POLICY_EFFECTIVE_DATE,
        POLICY_UPDATED_DATE,
        "STOP",
        "HELP",
        "no refunds",
        "18 years of age or older",
        ".edu",
        "$2.99",
      ]) {
        expect(text, `/terms should mention "${expected}"`).toContain(expected);
      }
      await saveScreenshot(page, `terms-${kind}`);
      if (kind === "mobile") await saveScreenshot(page, "terms-mobile-full", { fullPage: true });

      await page
        .getByRole("link", { name: /back to quad/i })
        .first()
        .click();
      await page.waitForURL(`${baseURL}/`);
      await page.getByRole("heading", { level: 1, name: /vote on your classmates/i }).waitFor();
      expect(errors).toEqual([]);
    }
  });
});

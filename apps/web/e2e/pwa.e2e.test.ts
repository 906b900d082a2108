import { SCREEN_TEXT } from "@quad/contracts";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { useBrowser } from "./browser";

const baseURL = inject("baseURL");

/**
 * Installable Quad in real Chromium: a manifest Chromium accepts, a service
 * worker that controls the page, the app shell from its cache (refreshed
 * behind) and opening with the network off. API answers are never cached.
 */

/** Width and height of a PNG, from its IHDR chunk. */
const pngSize = (bytes: Buffer) => ({ width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

/** Waits until the service worker is active and controls this page. */
async function controlledBy(page: Page): Promise<string> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  return page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
}

/** Every URL in the page's Cache Storage. */
const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });

describe("Quad as an installed web app", () => {
  const chromium = useBrowser();

  it("has a manifest Chromium parses without errors, with the icons it names", async () => {
    const { page, context, errors } = await chromium.open("mobile", `${baseURL}/`);
    const cdp = await context.newCDPSession(page);
    const {
      errors: manifestErrors,
      data,
      url,
    } = (await cdp.send("Page.getAppManifest")) as { errors: { message: string }[]; data?: string; url: string };
    expect(url).toBe(`${baseURL}/manifest.webmanifest`);
    expect(manifestErrors).toEqual([]);
    const manifest = JSON.parse(data!) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ name: "Quad", short_name: "Quad", start_url: "/home", display: "standalone" });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.icons.map((icon) => icon.purpose)).toContain("maskable");
    for (const icon of manifest.icons) {
      const response = await page.request.get(`${baseURL}${icon.src}`);
      expect(response.headers()["content-type"]).toBe("image/png");
      const { width, height } = pngSize(await response.body());
      expect(`${width}x${height}`).toBe(icon.sizes);
    }
    expect(await controlledBy(page)).toBe(`${baseURL}/service-worker.js`);
    expect(errors).toEqual([]);
  });

  it("answers a navigation with the cached shell at once and fetches the server's behind it", async () => {
    const { page, context, errors } = await chromium.open("mobile", `${baseURL}/login`);
    await controlledBy(page);
    const fetchedBehind: string[] = [];
    context.on("request", (request) => {
      if (request.serviceWorker()) fetchedBehind.push(new URL(request.url()).pathname);
    });
    const response = await page.goto(`${baseURL}/terms`, { waitUntil: "load" });
    expect(response?.fromServiceWorker()).toBe(true);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await expect.poll(() => fetchedBehind).toContain("/terms");
    // Kept for the next visit with the server's headers: its CSP follows its settings, not the build.
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const shell = await (await caches.open("quad-shell")).match("/app.html");
          return shell?.headers.get("content-security-policy") ?? null;
        }),
      )
      .toMatch(/default-src 'self'/);
    expect(errors).toEqual([]);
  });

  it(
    "opens the app shell with the network off, says it is offline, and never caches an API answer",
    { timeout: 90_000 },
    async () => {
      const { page, context, errors } = await chromium.open("mobile", `${baseURL}/login`);
      await controlledBy(page);
      // The shell's scripts call the API (config, schools); none of it may land in a cache.
      await page.getByRole("heading", { level: 1 }).first().waitFor();

      await context.setOffline(true);
      try {
        // The worker is offline too: what it answers below comes from its precache, not the server.
        const worker = context.serviceWorkers()[0]!;
        expect(
          await worker.evaluate(() =>
            fetch("/api/health").then(
              (r) => `status ${r.status}`,
              () => "failed",
            ),
          ),
        ).toBe("failed");
        await page.goto(`${baseURL}/login`, { waitUntil: "load" });
        await page.getByText(SCREEN_TEXT.offline).waitFor();
        await page.getByLabel("Phone number").waitFor();
        // A route never visited online opens from the same shell.
        await page.goto(`${baseURL}/terms`, { waitUntil: "load" });
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        await page.goto(`${baseURL}/`, { waitUntil: "load" });
        await page.getByText(SCREEN_TEXT.whoDoYouWantToSee).first().waitFor();
      } finally {
        await context.setOffline(false);
      }
      const cached = await cachedUrls(page);
      expect(cached.length).toBeGreaterThan(10);
      expect(cached.filter((url) => new URL(url).pathname.startsWith("/api"))).toEqual([]);
      // Offline, the app's own calls fail: Chromium logs those, nothing else.
      expect(errors.filter((e) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
    },
  );
});

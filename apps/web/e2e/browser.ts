import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

const SCREENSHOTS_DIR = resolve(import.meta.dirname, "screenshots");

/** Flags that keep Debian's Chromium quiet and deterministic in containers and CI. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launches Chromium (CHROMIUM_PATH, default /usr/bin/chromium). Playwright
 * gives every launch a fresh, temporary user-data-dir, removed on close.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Uncaught exceptions and console errors seen on the page so far. */
  errors: string[];
  close: () => Promise<void>;
}

async function openPage(
  browser: Browser,
  url: string,
  options: Parameters<Browser["newContext"]>[0],
): Promise<OpenedPage> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console.error: ${message.text()}`);
  });
  await page.goto(url, { waitUntil: "networkidle" });
  return { page, context, errors, close: () => context.close() };
}

/** A phone: 390×844 (iPhone 12–15), 2× pixels, touch. `options` may add to or override that. */
export function openMobilePage(
  browser: Browser,
  url: string,
  options: BrowserContextOptions = {},
): Promise<OpenedPage> {
  return openPage(browser, url, {
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    ...options,
  });
}

/** A laptop: 1280×800. `options` may add to or override that. */
export function openDesktopPage(
  browser: Browser,
  url: string,
  options: BrowserContextOptions = {},
): Promise<OpenedPage> {
  return openPage(browser, url, { viewport: { width: 1280, height: 800 }, ...options });
}

/** Saves e2e/screenshots/<name>.png (ignored by git) and returns its path. */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  const path = resolve(SCREENSHOTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false, animations: "disabled" });
  return path;
}

/**
 * Resolves once the page's finite animations and transitions have finished (a
 * dialog's entrance, a toast's slide-in, cards fading in). Looping ones (a
 * spinner) are not waited for, nor a toast's timer, which moves nothing and
 * runs until the toast closes.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => {
      if (animation.playState !== "running") return true;
      if (animation.effect?.getComputedTiming().iterations === Infinity) return true;
      return animation instanceof CSSAnimation && animation.animationName === "Toastify__trackProgress";
    }),
  );
}

/** A round on screen: its prompt, both candidates' photos loaded, nothing still moving. */
export async function roundShown(page: Page): Promise<void> {
  await page.locator("section[aria-busy=false] h2").waitFor();
  await page.waitForFunction(() => {
    const photos = Array.from(document.querySelectorAll<HTMLImageElement>("article img"));
    return photos.length === 2 && photos.every((img) => img.complete && img.naturalWidth > 0);
  });
  await animationsSettled(page);
}

/**
 * One Chromium for the enclosing describe: launched before its tests and
 * closed after them, with every page opened through `open`.
 */
export function useBrowser() {
  let browser: Browser | undefined;
  const opened: OpenedPage[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await Promise.all(opened.map((o) => o.close()));
    await browser?.close();
  });
  const launched = () => {
    if (!browser) throw new Error("useBrowser: Chromium is launched in beforeAll");
    return browser;
  };
  return {
    /** The pages opened so far, oldest first. */
    opened,
    get browser(): Browser {
      return launched();
    },
    /** A phone (390×844) or laptop page at `url`, closed with the browser; `options` go to its browser context. */
    async open(kind: "mobile" | "desktop", url: string, options?: BrowserContextOptions): Promise<OpenedPage> {
      const page = await (kind === "mobile" ? openMobilePage : openDesktopPage)(launched(), url, options);
      opened.push(page);
      return page;
    },
  };
}

export type Chromium = ReturnType<typeof useBrowser>;

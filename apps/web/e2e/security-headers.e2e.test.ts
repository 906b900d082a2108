import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { LOCKED_NAME_PLACEHOLDER, SCREEN_TEXT, SMS_CONSENT_TEXT, TERMS_CONSENT_TEXT, TOASTS } from "@quad/contracts";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SETTINGS_TEXT } from "../src/features/settings/texts";
import { createApi, JUNIORS, openSignedIn } from "./api";
import { useBrowser } from "./browser";
import { hueColors, portraitPng } from "./portrait";
import { startSecondServer } from "./second-server";

const baseURL = inject("baseURL");

/**
 * The browser side of the security headers: another site cannot frame the
 * app, and every screen and dialog runs under the Content-Security-Policy
 * without a single violation (a violation is a feature the policy breaks).
 */

const { createStudent, voteFor, latestCode } = createApi(baseURL, "203.0.113.141");

/** A page on another origin (another port) that frames `url`. */
async function startFramingSite(url: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(
      `<!doctype html><title>Elsewhere</title><h1>Win a prize</h1><iframe id="victim" src="${url}" width="400" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Watched {
  page: Page;
  context: BrowserContext;
  /** Every CSP violation the pages reported (the DOM event) or logged (the console), across navigations. */
  violations: string[];
  /** Console errors and uncaught exceptions other than CSP violations. */
  errors: string[];
}

/** A context whose every document reports CSP violations to the test before any of its own code runs. */
async function watchedContext(
  browser: ReturnType<typeof useBrowser>["browser"],
  kind: "mobile" | "desktop",
): Promise<Watched> {
  const context = await browser.newContext(
    kind === "mobile"
      ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }
      : { viewport: { width: 1280, height: 800 } },
  );
  const violations: string[] = [];
  const errors: string[] = [];
  await context.exposeBinding("__reportCspViolation", ({ frame }, text: string) =>
    violations.push(`${frame.url()}: ${text}`),
  );
  await context.addInitScript(() => {
    document.addEventListener(
      "securitypolicyviolation",
      (event) => {
        const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
        report(
          `${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sample || event.sourceFile})`,
        );
      },
      true,
    );
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    if (/Content Security Policy|Refused to/i.test(text)) violations.push(`console: ${text}`);
    else errors.push(`console.error: ${text}`);
  });
  return { page, context, violations, errors };
}

const heading = (page: Page, name: string | RegExp) => page.getByRole("heading", { level: 1, name }).waitFor();
const dialog = (page: Page, name: string) => page.getByRole("dialog", { name, exact: true });
const next = (page: Page) => page.getByRole("button", { name: "Next", exact: true }).click();
const go = (page: Page, path: string) => page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
/** Chromium logs expected 4xx answers (a 404 page, a declined card) as console errors; those are not violations. */
const unexpected = (errors: string[]) =>
  errors.filter((e) => !/Failed to load resource: the server responded with a status of (402|404)/.test(e));

describe("security headers in the browser", () => {
  const chromium = useBrowser();
  let framing: Awaited<ReturnType<typeof startFramingSite>>;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    framing = await startFramingSite(`${baseURL}/login`);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await framing?.close();
  });

  async function watched(kind: "mobile" | "desktop"): Promise<Watched> {
    const w = await watchedContext(chromium.browser, kind);
    contexts.push(w.context);
    return w;
  }

  it("a page on another origin cannot frame /login", async () => {
    const { page, violations } = await watched("desktop");
    await page.goto(framing.origin, { waitUntil: "load" });
    await page.getByRole("heading", { name: "Win a prize" }).waitFor();
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame).toBeDefined();
    // Once Chromium has refused the frame (frame-ancestors), nothing of the app is drawn in it.
    await expect.poll(() => violations.some((v) => /frame-ancestors/.test(v))).toBe(true);
    expect(frame!.url()).not.toBe(`${baseURL}/login`);
    expect(await frame!.getByRole("heading", { name: "Log in" }).count()).toBe(0);
    expect(await frame!.getByLabel("Phone number").count()).toBe(0);
    // The app itself still opens at that address, outside a frame.
    await page.goto(`${baseURL}/login`, { waitUntil: "networkidle" });
    await heading(page, "Log in");
  });

  it("the landing page, its preview round, /login, /terms, /opt-in and the 404 page run with no CSP violation", async () => {
    for (const kind of ["mobile", "desktop"] as const) {
      const { page, violations, errors } = await watched(kind);
      await go(page, "/");
      const question = dialog(page, SCREEN_TEXT.whoDoYouWantToSee);
      await question.waitFor();
      await question.getByRole("button", { name: "Girls" }).click();
      await page.getByRole("article").first().waitFor();
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll<HTMLImageElement>("article img")).every((img) => img.complete),
      );
      await go(page, "/login");
      await heading(page, "Log in");
      await go(page, "/terms");
      await go(page, "/opt-in");
      await heading(page, "Verify your phone");
      await go(page, "/no-such-page");
      await page.getByRole("heading").first().waitFor();
      expect(violations, kind).toEqual([]);
      expect(unexpected(errors), kind).toEqual([]);
    }
  });

  it(
    "the whole sign-up wizard, the photo cropper included, runs with no CSP violation",
    { timeout: 120_000 },
    async () => {
      const { page, violations, errors } = await watched("mobile");
      const digits = `2027${String(Math.floor(Math.random() * 1_000_000)).padStart(6, "0")}`;
      await go(page, "/signup?preference=female");
      await heading(page, "Create your account");
      await page.getByLabel("First name").fill("Casey");
      await next(page);
      await heading(page, "Where do you study?");
      const school = page
        .locator("label")
        .filter({ has: page.getByRole("radio") })
        .first();
      await school.waitFor();
      await school.click();
      await heading(page, "When do you graduate?");
      await page.locator("label", { hasText: String(JUNIORS) }).click();
      await heading(page, "Guy or girl?");
      await page.locator("label", { hasText: "Guy" }).click();
      await heading(page, "What's your Instagram?");
      await page.getByLabel("Instagram").pressSequentially("casey.csp");
      await next(page);
      await heading(page, "Verify your phone");
      await page.getByRole("checkbox", { name: SMS_CONSENT_TEXT }).check();
      await page.getByRole("checkbox", { name: TERMS_CONSENT_TEXT }).check();
      await page.getByLabel("Phone number").pressSequentially(digits);
      await page.getByRole("button", { name: "Send Code" }).click();
      await page.getByText(TOASTS.codeSent, { exact: true }).first().waitFor();
      await page.getByLabel("Verification code").fill(await latestCode(`+1${digits}`));
      await heading(page, "Add your photo");
      // The cropper reads the photo back through an object URL (img-src and connect-src blob:).
      await page
        .getByLabel("Choose photo")
        .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: portraitPng(...hueColors(200)) });
      await page.locator(".cropper-crop-box").waitFor();
      await page.getByRole("button", { name: "Preview Crop" }).click();
      await page.getByRole("img", { name: "Your cropped profile photo" }).waitFor();
      await page.getByRole("button", { name: "Complete" }).click();
      await page.waitForURL(`${baseURL}/home`);
      await page.getByText(TOASTS.accountCreated, { exact: true }).first().waitFor();
      expect(violations).toEqual([]);
      expect(unexpected(errors)).toEqual([]);
    },
  );

  it(
    "home with a round, the inbox, a vote's detail, the flash sale, Buy Unlocks, checkout and settings run with no CSP violation",
    { timeout: 120_000 },
    async () => {
      const recipient = await createStudent("+12027410101", {
        firstName: "Sasha",
        gender: "female",
        preference: "male",
        colors: hueColors(280),
      });
      const voter = await createStudent("+12027410102", {
        firstName: "Ezra",
        gender: "male",
        preference: "female",
        colors: hueColors(30),
      });
      await voteFor(voter, recipient);

      for (const kind of ["mobile", "desktop"] as const) {
        const { page, violations, errors } = await watched(kind);
        await page.goto(`${baseURL}/terms`);
        await openSignedIn(page, baseURL, recipient);
        // A round: prompt, two candidates with their photos.
        await page.locator("section[aria-busy=false] h2").waitFor();
        await page.waitForFunction(() => {
          const photos = Array.from(document.querySelectorAll<HTMLImageElement>("article img"));
          return photos.length === 2 && photos.every((img) => img.complete && img.naturalWidth > 0);
        });

        // The inbox, a vote's detail, and the flash sale its unlock offers.
        await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
        const list = dialog(page, SCREEN_TEXT.votedOnYou);
        const card = list.getByRole("listitem").first();
        await card.getByText(LOCKED_NAME_PLACEHOLDER).waitFor();
        await card.getByRole("button", { name: "View" }).click();
        const detail = dialog(page, LOCKED_NAME_PLACEHOLDER);
        await detail.getByText(SCREEN_TEXT.votedOnYouFor).waitFor();
        await detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }).click();
        const sale = dialog(page, "Flash sale");
        await sale.getByText("67% off").waitFor();
        await sale.getByRole("button", { name: "Not now" }).click();
        await detail.getByRole("button", { name: "Close", exact: true }).click();

        // Buy Unlocks, up to the checkout and a declined card.
        await list.getByRole("button", { name: "Close", exact: true }).click();
        await page.getByRole("button", { name: "Buy Unlocks" }).click();
        const packages = dialog(page, "Buy Unlocks");
        await packages.getByText("3 unlocks").click();
        await packages.getByRole("button", { name: "Continue · $7.99" }).click();
        const checkout = dialog(page, "Checkout");
        await checkout.getByLabel("Card number").fill("4000 0000 0000 0002");
        await checkout.getByLabel("Expiration date (MM / YY)").fill("12 / 34");
        await checkout.getByLabel("Security code (CVC)").fill("123");
        await checkout.getByRole("button", { name: "Pay $7.99" }).click();
        await checkout.getByRole("form", { name: "Card payment" }).getByText("Your card was declined.").waitFor();

        // Settings.
        await go(page, "/settings");
        await heading(page, SETTINGS_TEXT.title);
        await page.getByRole("img", { name: "Your profile photo" }).waitFor();
        expect(violations, kind).toEqual([]);
        expect(unexpected(errors), kind).toEqual([]);
      }
    },
  );

  it("the moderation page runs with no CSP violation", { timeout: 240_000 }, async () => {
    // Granting admin stops the server to open its database: a private one, as safety.e2e does.
    const server = await startSecondServer("csp-admin");
    try {
      const moderator = await createApi(server.baseURL(), "203.0.113.142").createStudent("+12027410201", {
        firstName: "Jordan",
        gender: "female",
        colors: hueColors(120),
      });
      await server.grantAdmin(moderator.phone);
      const adminURL = server.baseURL();
      const { page, violations, errors } = await watched("desktop");
      await page.goto(`${adminURL}/terms`);
      await openSignedIn(page, adminURL, moderator, "/admin");
      await heading(page, "Moderation");
      await page.getByText("Granted admin").waitFor();
      expect(violations).toEqual([]);
      expect(unexpected(errors)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

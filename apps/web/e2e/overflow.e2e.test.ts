import { SCHOOL_EMAIL_MESSAGES, SCREEN_TEXT, SMS_CONSENT_TEXT, TERMS_CONSENT_TEXT } from "@quad/contracts";
import type { Locator, Page } from "playwright-core";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { SETTINGS_TEXT } from "../src/features/settings/texts";
import { createApi, JUNIORS, openSignedIn, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser, type OpenedPage } from "./browser";
import { hueColors, portraitPng } from "./portrait";

const baseURL = inject("baseURL");

/**
 * No screen is wider than the phone: every screen and dialog the walk
 * reaches, on a 320 px and a 390 px wide phone, and the page never scrolls
 * sideways (the document is no wider than the window). A failure names the
 * screen and the elements that stick out past the right edge.
 */

const WIDTHS = [320, 390] as const;

const { createStudent, latestCode, latestEmailCode, voteFor } = createApi(baseURL, "203.0.113.192");

interface Overflow {
  scrollWidth: number;
  innerWidth: number;
  /** The outermost elements whose right edge lies past the window's. */
  culprits: string[];
}

/** Waits for `arrived`; where the app does not move on by itself, clicks `button` first. */
async function onwards(arrived: Locator, button: Locator): Promise<void> {
  try {
    await arrived.waitFor({ timeout: 2_000 });
  } catch {
    await button.click();
    await arrived.waitFor();
  }
}

/**
 * Samples the document's width every frame from now on, so an overflow that
 * lasts only while something animates in is seen too.
 */
async function watchWidth(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { widestSeen?: number };
    if (w.widestSeen !== undefined) return;
    w.widestSeen = document.documentElement.scrollWidth;
    const sample = () => {
      w.widestSeen = Math.max(w.widestSeen ?? 0, document.documentElement.scrollWidth);
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
}

async function overflowOn(page: Page, deviceWidth: number): Promise<Overflow | null> {
  return page.evaluate((deviceWidth) => {
    const w = window as unknown as { widestSeen?: number };
    const scrollWidth = Math.max(document.documentElement.scrollWidth, w.widestSeen ?? 0);
    w.widestSeen = document.documentElement.scrollWidth;
    // A phone's browser widens its layout viewport to fit wide content (the page then shows zoomed
    // out), so the window's width is held to the device's too.
    const innerWidth = Math.min(window.innerWidth, deviceWidth);
    if (scrollWidth <= innerWidth && window.innerWidth <= deviceWidth) return null;
    const culprits: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll("*"))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= innerWidth + 0.5) continue;
      const parent = element.parentElement?.getBoundingClientRect();
      if (parent && parent.right > innerWidth + 0.5) continue; // its parent is listed already
      culprits.push(`${element.outerHTML.slice(0, 120)} (right ${Math.round(box.right)})`);
    }
    return { scrollWidth, innerWidth: window.innerWidth, culprits: culprits.slice(0, 5) };
  }, deviceWidth);
}

describe("no screen wider than the phone", () => {
  const chromium = useBrowser();

  let found: Record<string, Overflow> = {};
  let checked = 0;
  beforeEach(() => {
    found = {};
    checked = 0;
  });

  async function check(page: Page, width: number, screen: string): Promise<void> {
    await animationsSettled(page);
    checked += 1;
    const overflow = await overflowOn(page, width);
    await watchWidth(page);
    if (overflow) found[`${screen} (${width})`] = overflow;
    await saveScreenshot(page, `overflow-${screen.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}-${width}`);
  }

  const open = (width: number, path: string): Promise<OpenedPage> =>
    chromium.open("mobile", `${baseURL}${path}`, { viewport: { width, height: 844 } });

  async function openAs(width: number, student: Student, path = "/home"): Promise<OpenedPage> {
    const opened = await open(width, "/terms");
    await openSignedIn(opened.page, baseURL, student, path);
    return opened;
  }

  const dialog = (page: Page, name: string | RegExp): Locator =>
    page.getByRole("dialog", { name, exact: typeof name === "string" });

  async function roundShown(page: Page): Promise<void> {
    await page.locator("section[aria-busy=false] h2").waitFor();
    await page.waitForFunction(() => {
      const photos = Array.from(document.querySelectorAll<HTMLImageElement>("article img"));
      return photos.length === 2 && photos.every((img) => img.complete && img.naturalWidth > 0);
    });
  }

  for (const width of WIDTHS) {
    const phone = (n: number) => `+1202745${String(width + n).padStart(4, "0")}`;

    it(
      `signed out: landing, log in, every sign-up step, terms, not found (${width} px)`,
      { timeout: 120_000 },
      async () => {
        const { page } = await open(width, "/");
        await dialog(page, SCREEN_TEXT.whoDoYouWantToSee).waitFor();
        await check(page, width, "landing: who do you want to see");
        await dialog(page, SCREEN_TEXT.whoDoYouWantToSee).getByRole("button", { name: "Girls" }).click();
        await roundShown(page);
        await check(page, width, "landing: preview round");

        await page.goto(`${baseURL}/login`, { waitUntil: "networkidle" });
        await page.getByRole("heading", { level: 1, name: "Log in" }).waitFor();
        await check(page, width, "log in: phone");
        await page.getByLabel("Phone number").pressSequentially(phone(9).slice(2));
        await page.getByRole("button", { name: "Send Code" }).click();
        const code = page.getByLabel("Verification code");
        await code.waitFor();
        await check(page, width, "log in: code");
        const sent = await latestCode(phone(9));
        await code.fill(sent === "000000" ? "111111" : "000000");
        await onwards(
          page.locator('input[name="code"][aria-invalid="true"]'),
          page.getByRole("button", { name: "Verify Code" }),
        );
        await check(page, width, "log in: wrong code");

        for (const path of ["/terms", "/no-such-page", "/opt-in"]) {
          await page.goto(`${baseURL}${path}`, { waitUntil: "networkidle" });
          await check(page, width, path);
        }

        await page.goto(`${baseURL}/signup?preference=female`, { waitUntil: "networkidle" });
        const heading = (name: string) => page.getByRole("heading", { level: 1, name }).waitFor();
        const next = () => page.getByRole("button", { name: "Next", exact: true }).click();
        await heading("Create your account");
        await next();
        await page.getByText("First name is required").waitFor();
        await check(page, width, "sign-up: name, invalid");
        await page.getByLabel("First name").fill("Avery");
        await next();
        await heading("Where do you study?");
        const school = page
          .locator("label")
          .filter({ has: page.getByRole("radio") })
          .first();
        await school.waitFor();
        await check(page, width, "sign-up: university");
        await school.click();
        await onwards(
          page.getByRole("heading", { name: "When do you graduate?" }),
          page.getByRole("button", { name: "Next", exact: true }),
        );
        await check(page, width, "sign-up: class of");
        await page.locator("label", { hasText: String(JUNIORS) }).click();
        await onwards(
          page.getByRole("heading", { name: "Guy or girl?" }),
          page.getByRole("button", { name: "Next", exact: true }),
        );
        await check(page, width, "sign-up: gender");
        await page.locator("label", { hasText: "Guy" }).click();
        await onwards(
          page.getByRole("heading", { name: "What's your Instagram?" }),
          page.getByRole("button", { name: "Next", exact: true }),
        );
        await check(page, width, "sign-up: instagram");
        await page.getByLabel("Instagram").pressSequentially("avery.wide");
        await next();
        await heading("Verify your phone");
        await check(page, width, "sign-up: phone");
        await page.getByRole("checkbox", { name: SMS_CONSENT_TEXT }).check();
        await page.getByRole("checkbox", { name: TERMS_CONSENT_TEXT }).check();
        await page.getByLabel("Phone number").pressSequentially(phone(1).slice(2));
        await page.getByRole("button", { name: "Send Code" }).click();
        await page.getByLabel("Verification code").waitFor();
        await check(page, width, "sign-up: code");
        await page.getByLabel("Verification code").fill(await latestCode(phone(1)));
        await onwards(
          page.getByRole("heading", { name: "Add your photo" }),
          page.getByRole("button", { name: "Verify Code" }),
        );
        await check(page, width, "sign-up: photo");
        await page
          .getByLabel("Choose photo")
          .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: portraitPng(...hueColors(120)) });
        await page.locator(".cropper-crop-box").waitFor();
        await check(page, width, "sign-up: photo crop");
        await page.getByRole("button", { name: "Preview Crop" }).click();
        await page.getByRole("img", { name: "Your cropped profile photo" }).waitFor();
        await check(page, width, "sign-up: photo preview");
        await page.getByRole("button", { name: "Complete" }).click();

        // Home before the school e-mail is proved: the address, its code, a wrong code.
        await page.getByRole("heading", { level: 2, name: SCHOOL_EMAIL_MESSAGES.verifyToVote }).waitFor();
        const email = page.getByRole("textbox", { name: "School e-mail" });
        await expect.poll(() => email.getAttribute("placeholder")).toMatch(/^you@(?!school\.edu)/);
        await check(page, width, "home: verify school e-mail");
        await email.fill("avery+quad@gmail.com");
        await page.getByRole("button", { name: "Send code" }).click();
        await page.locator('input[name="email"][aria-invalid="true"]').waitFor();
        await check(page, width, "home: verify school e-mail, refused address");
        const address = `avery.wide.${width}.${phone(1).slice(-4)}@${(await email.getAttribute("placeholder"))!.slice("you@".length)}`;
        await email.fill(address);
        await page.getByRole("button", { name: "Send code" }).click();
        const emailCode = page.getByLabel("Verification code");
        await emailCode.waitFor();
        await check(page, width, "home: school e-mail code sent");
        const right = await latestEmailCode(address);
        await emailCode.fill(right === "000000" ? "111111" : "000000");
        await onwards(
          page.locator('input[name="code"][aria-invalid="true"]'),
          page.getByRole("button", { name: "Verify e-mail" }),
        );
        await check(page, width, "home: school e-mail, wrong code");

        expect(checked).toBeGreaterThan(20);
        expect(found, JSON.stringify(found, null, 1)).toEqual({});
      },
    );

    it(
      `signed in: the round and its dialogs, votes, unlocks, boost, settings (${width} px)`,
      { timeout: 120_000 },
      async () => {
        const student = await createStudent(phone(2), {
          firstName: "Rowan",
          gender: "female",
          preference: "male",
          colors: hueColors(20),
        });
        const voter = await createStudent(phone(3), {
          firstName: "Ezra",
          gender: "male",
          preference: "female",
          colors: hueColors(60),
        });
        await voteFor(voter, student);
        const { page } = await openAs(width, student);
        await roundShown(page);
        await check(page, width, "home: round");

        const card = page.getByRole("article").first();
        const name = (await card.getByRole("heading").textContent())!.trim();
        await card.getByRole("button", { name: `More options for ${name}` }).click();
        const sheet = dialog(page, name);
        await sheet.waitFor();
        await check(page, width, "home: card actions sheet");
        await sheet.getByRole("button", { name: new RegExp(`^Report ${name}`) }).click();
        const report = dialog(page, `Report ${name}`);
        await report.waitFor();
        await check(page, width, "home: report dialog");
        await report.getByRole("button", { name: "Close", exact: true }).click();
        await card.getByRole("button", { name: `More options for ${name}` }).click();
        await sheet.getByRole("button", { name: new RegExp(`^Block ${name}`) }).click();
        const block = dialog(page, `Block ${name}?`);
        await block.waitFor();
        await check(page, width, "home: block dialog");
        await page.keyboard.press("Escape");
        await block.waitFor({ state: "detached" });

        await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
        const list = dialog(page, SCREEN_TEXT.votedOnYou);
        const item = list.getByRole("listitem").first();
        await item.locator("[data-locked-portrait]").waitFor();
        await check(page, width, "voted on you: list");
        await item.getByRole("button", { name: "View" }).click();
        await page.getByText(SCREEN_TEXT.votedOnYouFor).waitFor();
        await check(page, width, "voted on you: details");
        await page.getByRole("button", { name: SCREEN_TEXT.unlockDetails }).click();
        const sale = dialog(page, "Flash sale");
        await sale.waitFor();
        await check(page, width, "flash sale");
        await sale.getByRole("button", { name: "Not now" }).click();
        await page.keyboard.press("Escape");
        await page.keyboard.press("Escape");
        await list.waitFor({ state: "detached" });

        await page.getByRole("button", { name: "Buy Unlocks" }).click();
        const packages = dialog(page, "Buy Unlocks");
        await packages.locator("[data-badge]").waitFor();
        await check(page, width, "buy unlocks");
        await packages.getByText("3 unlocks").click();
        await packages.getByRole("button", { name: "Continue · $7.99" }).click();
        const checkout = dialog(page, "Checkout");
        await checkout.getByLabel("Card number").waitFor();
        await check(page, width, "checkout");
        await page.keyboard.press("Escape");
        await checkout.waitFor({ state: "detached" });

        const empty = await openAs(width, voter);
        await empty.page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
        const emptyList = dialog(empty.page, SCREEN_TEXT.votedOnYou);
        await emptyList.getByText(SCREEN_TEXT.noVotesTitle).waitFor();
        await check(empty.page, width, "voted on you: empty");
        await emptyList.getByRole("button", { name: "Boost" }).click();
        await dialog(empty.page, "Boost your profile").waitFor();
        await check(empty.page, width, "boost");

        await page.goto(`${baseURL}/settings`, { waitUntil: "networkidle" });
        await page.getByRole("heading", { level: 1, name: SETTINGS_TEXT.title }).waitFor();
        await page.getByRole("img", { name: "Your profile photo" }).waitFor();
        await check(page, width, "settings");
        await page.getByRole("button", { name: "Change photo" }).click();
        const photo = dialog(page, "Change photo");
        await photo.waitFor();
        await check(page, width, "settings: change photo");
        await photo.getByRole("button", { name: "Close", exact: true }).click();
        await page.getByRole("button", { name: "Delete", exact: true }).click();
        const remove = dialog(page, "Delete your account?");
        await remove.waitFor();
        await check(page, width, "settings: delete account");

        expect(checked).toBeGreaterThanOrEqual(14);
        expect(found, JSON.stringify(found, null, 1)).toEqual({});
      },
    );
  }
});

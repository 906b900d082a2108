import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  SCHOOL_EMAIL_MESSAGES,
  SCREEN_TEXT,
  SKIPS_IN_A_ROW,
  SMS_CONSENT_TEXT,
  TERMS_CONSENT_TEXT,
  TOASTS,
  VOTES_PER_BATCH,
} from "@quad/contracts";
import type AxeCore from "axe-core";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { SETTINGS_TEXT } from "../src/features/settings/texts";
import { createApi, JUNIORS, openSignedIn, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser, type OpenedPage } from "./browser";
import { hueColors, portraitPng } from "./portrait";
import { startSecondServer, type SecondServer } from "./second-server";

const baseURL = inject("baseURL");

/**
 * axe-core on every screen and dialog, on a phone (390×844) and a laptop
 * (1366×768), against the real server: any violation fails. Each check
 * names the screen, so a failure says where to look.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const SIZES = {
  mobile: { width: 390, height: 844 },
  desktop: { width: 1366, height: 768 },
} as const;
type Kind = keyof typeof SIZES;

const { createStudent, voteFor, openRound, vote, latestCode, latestEmailCode } = createApi(baseURL, "203.0.113.62");

interface Violation {
  rule: string;
  impact: string | null | undefined;
  nodes: string[];
}

/** Runs axe-core (injected with its own source: the app's CSP is bypassed for the test) on the whole page. */
async function violationsOn(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof AxeCore }).axe;
    const results = await axe.run(document, {
      resultTypes: ["violations"],
      // Off by default (experimental), on here: a control's visible label must be part of its name.
      rules: { "label-content-name-mismatch": { enabled: true } },
    });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) =>
        `${node.target.join(" ")} — ${node.failureSummary ?? ""}`.replace(/\s+/g, " "),
      ),
    }));
  });
}

describe("accessibility: no axe-core violations", () => {
  const chromium = useBrowser();

  /** Violations by screen, gathered through a whole test so one run reports every screen. */
  let found: Record<string, Violation[]> = {};
  beforeEach(() => {
    found = {};
  });

  /**
   * Checks one screen: its violations are reported, with the rules and
   * elements, when the test ends. Saves e2e/screenshots/a11y-<screen>-<kind>.png.
   */
  async function check(page: Page, kind: Kind, screen: string): Promise<void> {
    await animationsSettled(page); // entrance animations (their opacity would skew contrast)
    const violations = await violationsOn(page);
    if (violations.length > 0) found[`${screen} (${kind})`] = violations;
    await saveScreenshot(page, `a11y-${screen.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}-${kind}`);
  }

  async function open(kind: Kind, path: string): Promise<OpenedPage> {
    return chromium.open(kind, `${baseURL}${path}`, { viewport: SIZES[kind], bypassCSP: true });
  }

  async function openAs(kind: Kind, student: Student, path = "/home"): Promise<OpenedPage> {
    const opened = await open(kind, "/terms");
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

  for (const kind of ["mobile", "desktop"] as const) {
    const phones = kind === "mobile" ? 100 : 200;
    const phone = (n: number) => `+1202743${String(phones + n).padStart(4, "0")}`;

    it(`signed out: landing, log in, sign-up's steps, terms, not found (${kind})`, { timeout: 120_000 }, async () => {
      const { page, errors } = await open(kind, "/");
      await dialog(page, SCREEN_TEXT.whoDoYouWantToSee).waitFor();
      await check(page, kind, "landing: Who do you want to see?");
      await page.keyboard.press("Escape");
      await dialog(page, SCREEN_TEXT.whoDoYouWantToSee).waitFor({ state: "detached" });
      await check(page, kind, "landing: no choice yet");
      await page.reload({ waitUntil: "networkidle" });
      await dialog(page, SCREEN_TEXT.whoDoYouWantToSee).getByRole("button", { name: "Girls" }).click();
      await roundShown(page);
      await check(page, kind, "landing: preview round");

      await page.goto(`${baseURL}/login`, { waitUntil: "networkidle" });
      await page.getByRole("heading", { level: 1, name: "Log in" }).waitFor();
      await check(page, kind, "log in: phone");
      // A number with no account gets a code too; a wrong one marks the field.
      await page.getByLabel("Phone number").pressSequentially(phone(9).slice(2));
      await page.getByRole("button", { name: "Send Code" }).click();
      const code = page.getByLabel("Verification code");
      await code.waitFor();
      await check(page, kind, "log in: code");
      const sent = await latestCode(phone(9));
      await code.fill(sent === "000000" ? "111111" : "000000");
      await page.locator('input[name="code"][aria-invalid="true"]').waitFor();
      await check(page, kind, "log in: wrong code");

      await page.goto(`${baseURL}/terms`, { waitUntil: "networkidle" });
      await check(page, kind, "terms");
      await page.goto(`${baseURL}/no-such-page`, { waitUntil: "networkidle" });
      await check(page, kind, "not found");

      // Sign-up, step by step, to the photo.
      await page.goto(`${baseURL}/signup?preference=female`, { waitUntil: "networkidle" });
      const heading = (name: string) => page.getByRole("heading", { level: 1, name }).waitFor();
      const next = () => page.getByRole("button", { name: "Next", exact: true }).click();
      await heading("Create your account");
      await check(page, kind, "sign-up: name");
      await next();
      await page.getByText("First name is required").waitFor();
      await check(page, kind, "sign-up: name, invalid");
      await page.getByLabel("First name").fill("Avery");
      await next();
      await heading("Where do you study?");
      const school = page
        .locator("label")
        .filter({ has: page.getByRole("radio") })
        .first();
      await school.waitFor();
      await check(page, kind, "sign-up: university");
      await school.click();
      await heading("When do you graduate?");
      await check(page, kind, "sign-up: class of");
      await page.locator("label", { hasText: String(JUNIORS) }).click();
      await heading("Guy or girl?");
      await check(page, kind, "sign-up: gender");
      await page.locator("label", { hasText: "Guy" }).click();
      await heading("What's your Instagram?");
      await check(page, kind, "sign-up: instagram");
      await page.getByLabel("Instagram").pressSequentially("avery.a11y");
      await next();
      await heading("Verify your phone");
      await check(page, kind, "sign-up: phone");
      await page.getByRole("checkbox", { name: SMS_CONSENT_TEXT }).check();
      await page.getByRole("checkbox", { name: TERMS_CONSENT_TEXT }).check();
      await page.getByLabel("Phone number").pressSequentially(phone(1).slice(2));
      await page.getByRole("button", { name: "Send Code" }).click();
      await page.getByText(TOASTS.codeSent, { exact: true }).first().waitFor();
      await page.getByLabel("Verification code").waitFor();
      await check(page, kind, "sign-up: code");
      await page.getByLabel("Verification code").fill(await latestCode(phone(1)));
      await heading("Add your photo");
      await check(page, kind, "sign-up: photo");
      await page
        .getByLabel("Choose photo")
        .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: portraitPng(...hueColors(120)) });
      await page.locator(".cropper-crop-box").waitFor();
      await check(page, kind, "sign-up: photo crop");
      await page.getByRole("button", { name: "Preview Crop" }).click();
      await page.getByRole("img", { name: "Your cropped profile photo" }).waitFor();
      await check(page, kind, "sign-up: photo preview");
      // The one failed request is the wrong code's answer.
      expect(errors).toEqual([
        "console.error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
      ]);
      expect(found, JSON.stringify(found, null, 1)).toEqual({});
    });

    it(
      `signed in: the round, its sheet, report and block; settings and its dialogs (${kind})`,
      { timeout: 120_000 },
      async () => {
        const student = await createStudent(phone(2), {
          firstName: "Rowan",
          gender: "female",
          preference: "male",
          colors: hueColors(20),
        });
        const { page, errors } = await openAs(kind, student);
        await roundShown(page);
        await check(page, kind, "home: round");

        const card = page.getByRole("article").first();
        const name = (await card.getByRole("heading").textContent())!.trim();
        await card.getByRole("button", { name: `More options for ${name}` }).click();
        const sheet = dialog(page, name);
        await sheet.waitFor();
        await check(page, kind, "home: card actions sheet");
        await sheet.getByRole("button", { name: new RegExp(`^Report ${name}`) }).click();
        const report = dialog(page, `Report ${name}`);
        await report.waitFor();
        await check(page, kind, "home: report dialog");
        await report.getByText("Something else").click();
        await report.getByRole("button", { name: "Send report" }).click();
        await report.locator("[aria-invalid=true]").waitFor();
        await check(page, kind, "home: report dialog, note missing");
        await report.getByRole("button", { name: "Close", exact: true }).click();
        await card.getByRole("button", { name: `More options for ${name}` }).click();
        await sheet.getByRole("button", { name: new RegExp(`^Block ${name}`) }).click();
        const block = dialog(page, `Block ${name}?`);
        await block.waitFor();
        await check(page, kind, "home: block dialog");
        await block.getByRole("button", { name: `Block ${name}`, exact: true }).click();
        await page.getByText(`${name} is blocked`).waitFor();
        await roundShown(page);
        await check(page, kind, "home: after a block");

        await page.goto(`${baseURL}/settings`, { waitUntil: "networkidle" });
        await page.getByRole("heading", { level: 1, name: SETTINGS_TEXT.title }).waitFor();
        await page.getByRole("img", { name: "Your profile photo" }).waitFor();
        await page.getByRole("button", { name: "Unblock" }).waitFor();
        await check(page, kind, "settings, with a blocked student");
        await page.getByRole("button", { name: "Change photo" }).click();
        const photo = dialog(page, "Change photo");
        await photo.waitFor();
        await check(page, kind, "settings: change photo");
        await photo
          .getByLabel("Choose photo")
          .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: portraitPng(...hueColors(320)) });
        await photo.locator(".cropper-crop-box").waitFor();
        await check(page, kind, "settings: change photo, crop");
        await photo.getByRole("button", { name: "Close", exact: true }).click();
        await page.getByRole("button", { name: "Delete", exact: true }).click();
        const remove = dialog(page, "Delete your account?");
        await remove.waitFor();
        await check(page, kind, "settings: delete account");
        await remove.getByRole("button", { name: "Close", exact: true }).click();
        expect(errors).toEqual([]);
        expect(found, JSON.stringify(found, null, 1)).toEqual({});
      },
    );

    it(`received votes, unlocks, payments and boosts (${kind})`, { timeout: 120_000 }, async () => {
      const recipient = await createStudent(phone(3), {
        firstName: "Sage",
        gender: "female",
        preference: "male",
        colors: hueColors(260),
      });
      const voter = await createStudent(phone(4), {
        firstName: "Ezra",
        gender: "male",
        preference: "female",
        colors: hueColors(60),
      });
      await voteFor(voter, recipient);
      const { page, errors } = await openAs(kind, recipient);
      const seeVotes = page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou });
      await seeVotes.click();
      const list = dialog(page, SCREEN_TEXT.votedOnYou);
      const item = list.getByRole("listitem").first();
      await item.locator("[data-locked-portrait]").waitFor();
      // What lies behind an open dialog is inert: the dialog is the browser's modal one.
      expect(await list.evaluate((element) => element.matches("dialog:modal"))).toBe(true);
      await check(page, kind, "voted on you: list");
      await item.getByRole("button", { name: "View" }).click();
      await page.getByText(SCREEN_TEXT.votedOnYouFor).waitFor();
      await check(page, kind, "voted on you: details, locked");
      await page.getByRole("button", { name: SCREEN_TEXT.unlockDetails }).click();
      const sale = dialog(page, "Flash sale");
      await sale.waitFor();
      await check(page, kind, "flash sale");
      await sale.getByRole("button", { name: "Not now" }).click();
      await page.keyboard.press("Escape");
      await page.keyboard.press("Escape");
      await list.waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Buy Unlocks" }).click();
      const packages = dialog(page, "Buy Unlocks");
      await packages.locator("[data-badge]").waitFor();
      await check(page, kind, "buy unlocks");
      await packages.getByText("3 unlocks").click();
      await packages.getByRole("button", { name: "Continue · $7.99" }).click();
      const checkout = dialog(page, "Checkout");
      await checkout.getByLabel("Card number").waitFor();
      await check(page, kind, "checkout");
      await checkout.getByLabel("Card number").fill("4000 0000 0000 0002");
      await checkout.getByLabel("Expiration date (MM / YY)").fill("12 / 34");
      await checkout.getByLabel("Security code (CVC)").fill("123");
      await checkout.getByRole("button", { name: "Pay $7.99" }).click();
      await checkout.getByRole("form", { name: "Card payment" }).getByText("Your card was declined.").waitFor();
      await check(page, kind, "checkout: declined");
      await checkout.getByLabel("Card number").fill("4242 4242 4242 4242");
      await checkout.getByLabel("Expiration date (MM / YY)").fill("12 / 34");
      await checkout.getByLabel("Security code (CVC)").fill("123");
      await checkout.getByRole("button", { name: "Pay $7.99" }).click();
      await checkout.waitFor({ state: "detached" });

      await seeVotes.click();
      await item.getByRole("button", { name: "View" }).click();
      await page.getByRole("button", { name: SCREEN_TEXT.unlockDetails }).click();
      const confirm = dialog(page, SCREEN_TEXT.useUnlockCredit);
      await confirm.waitFor();
      await check(page, kind, "use unlock credit");
      await confirm.getByRole("button", { name: "Use 1 unlock" }).click();
      const revealed = dialog(page, "Ezra");
      await revealed.getByRole("link", { name: /@/ }).waitFor();
      await expect
        .poll(() => revealed.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      await check(page, kind, "voted on you: details, unlocked");
      await revealed.getByRole("button", { name: "Done" }).click();
      await item.getByText("Ezra").waitFor();
      await check(page, kind, "voted on you: list, unlocked");

      // The voter has none: the empty list, and Boost from it.
      const empty = await openAs(kind, voter);
      await empty.page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
      const emptyList = dialog(empty.page, SCREEN_TEXT.votedOnYou);
      await emptyList.getByText(SCREEN_TEXT.noVotesTitle).waitFor();
      await check(empty.page, kind, "voted on you: empty");
      await emptyList.getByRole("button", { name: "Boost" }).click();
      const boost = dialog(empty.page, "Boost your profile");
      await boost.getByText("24 hours", { exact: true }).click();
      await check(empty.page, kind, "boost");
      // The declined card's answer is the one failed request.
      expect(errors).toEqual([
        "console.error: Failed to load resource: the server responded with a status of 402 (Payment Required)",
      ]);
      expect(empty.errors).toEqual([]);
      expect(found, JSON.stringify(found, null, 1)).toEqual({});
    });

    it(
      `school e-mail: the verification screen and proving an address in Settings (${kind})`,
      { timeout: 120_000 },
      async () => {
        const student = await createStudent(
          phone(6),
          { firstName: "Indra", gender: "female", preference: "male", colors: hueColors(100) },
          { member: false },
        );
        const { page, errors } = await openAs(kind, student);
        await page.getByRole("heading", { level: 2, name: SCHOOL_EMAIL_MESSAGES.verifyToVote }).waitFor();
        await expect
          .poll(() => page.getByRole("textbox", { name: "School e-mail" }).getAttribute("placeholder"))
          .toMatch(/^you@/);
        await check(page, kind, "home: verify school e-mail");
        await page.getByRole("textbox", { name: "School e-mail" }).fill("indra@gmail.com");
        await page.getByRole("button", { name: "Send code" }).click();
        await page.getByText(/^That address isn't from .+\. Use your e-mail ending in @/).waitFor();
        await check(page, kind, "home: verify school e-mail, another school's address");

        await page.goto(`${baseURL}/settings`, { waitUntil: "networkidle" });
        const section = page.getByRole("region", { name: "School e-mail" });
        const field = section.getByRole("textbox", { name: "School e-mail" });
        await expect.poll(() => field.getAttribute("placeholder")).toMatch(/^you@.+\..+/);
        await check(page, kind, "settings: school e-mail to prove");
        const address = `indra.${kind}@${(await field.getAttribute("placeholder"))!.slice("you@".length)}`;
        await field.fill(address);
        await section.getByRole("button", { name: "Send code" }).click();
        const code = section.getByLabel("Verification code");
        await code.waitFor();
        await check(page, kind, "settings: school e-mail code");
        await code.fill(await latestEmailCode(address));
        await section.getByText(address).waitFor();
        await check(page, kind, "settings: school e-mail proved");
        // Home answered 403 until the address was proved, and the other school's address 400.
        expect(errors.filter((e) => !/status of 40[03]/.test(e))).toEqual([]);
        expect(found, JSON.stringify(found, null, 1)).toEqual({});
      },
    );

    it(`out of skips, Out of Votes and the cooldown (${kind})`, { timeout: 120_000 }, async () => {
      const student = await createStudent(phone(5), {
        firstName: "Jules",
        gender: "male",
        preference: "female",
        colors: hueColors(160),
      });
      await openRound(student);
      for (let skip = 0; skip < SKIPS_IN_A_ROW; skip++) await openRound(student, true);
      const { page, errors } = await openAs(kind, student);
      await roundShown(page);
      await page.getByRole("button", { name: "Skip 0 left" }).waitFor();
      await check(page, kind, "home: out of skips");

      for (let i = 0; i < VOTES_PER_BATCH - 1; i++) await vote(student, await openRound(student));
      await page.reload({ waitUntil: "networkidle" });
      await roundShown(page);
      await page
        .getByRole("button", { name: /^Vote for / })
        .first()
        .click();
      const outOfVotes = dialog(page, SCREEN_TEXT.outOfVotesTitle);
      await outOfVotes.waitFor();
      await check(page, kind, "Out of Votes");
      await outOfVotes.getByRole("button", { name: "Got it" }).click();
      await page.getByText(/^Time left: /).waitFor();
      await check(page, kind, "home: cooldown");
      expect(errors).toEqual([]);
      expect(found, JSON.stringify(found, null, 1)).toEqual({});
      expect(found, JSON.stringify(found, null, 1)).toEqual({});
    });
  }
});

describe("accessibility: no axe-core violations on /admin", () => {
  const chromium = useBrowser();
  let server: SecondServer;

  beforeAll(async () => {
    server = await startSecondServer("accessibility-admin");
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it(
    "the review queue, the removal dialog and the audit trail, on a phone and a laptop",
    { timeout: 240_000 },
    async () => {
      const api = createApi(server.baseURL(), "203.0.113.63");
      const admin = await api.createStudent("+12027440101", {
        firstName: "Morgan",
        gender: "male",
        preference: "female",
        colors: hueColors(40),
      });
      await api.createStudent("+12027440102", {
        firstName: "Riley",
        gender: "male",
        preference: "female",
        colors: hueColors(150),
      });
      const reporter = await api.createStudent("+12027440103", {
        firstName: "Ash",
        gender: "female",
        preference: "male",
        colors: hueColors(260),
      });
      const round = await api.openRound(reporter);
      const riley = round.users.find((user) => user.firstName === "Riley")!;
      await api.api("/safety/report", {
        method: "POST",
        token: reporter.tokens.token,
        body: JSON.stringify({ target: { userId: riley.id }, reason: "other", note: "Not a real student." }),
      });
      await server.grantAdmin(admin.phone);
      const adminURL = server.baseURL();

      const found: Record<string, Violation[]> = {};
      for (const kind of ["mobile", "desktop"] as const) {
        const { page, errors } = await chromium.open(kind, `${adminURL}/terms`, {
          viewport: SIZES[kind],
          bypassCSP: true,
        });
        const check = async (screen: string) => {
          await animationsSettled(page);
          const violations = await violationsOn(page);
          if (violations.length > 0) found[`${screen} (${kind})`] = violations;
          await saveScreenshot(page, `a11y-${screen.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}-${kind}`);
        };
        await openSignedIn(page, adminURL, admin, "/admin");
        await page.getByRole("heading", { level: 1, name: "Moderation" }).waitFor();
        const card = page.getByRole("article", { name: "Riley" });
        await card.getByText("Not a real student.").waitFor();
        await page.getByText("Granted admin").waitFor();
        await check("admin: review queue");
        await card.getByRole("button", { name: "Remove profile of Riley" }).click();
        const confirm = page.getByRole("dialog", { name: "Remove Riley's profile?" });
        await confirm.waitFor();
        await check("admin: remove profile");
        await confirm.getByRole("button", { name: "Cancel" }).click();
        await confirm.waitFor({ state: "detached" });
        expect(errors).toEqual([]);
      }
      expect(found, JSON.stringify(found, null, 1)).toEqual({});
    },
  );
});

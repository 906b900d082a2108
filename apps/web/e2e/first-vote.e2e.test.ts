import { SCREEN_TEXT, SMS_CONSENT_TEXT, TERMS_CONSENT_TEXT } from "@quad/contracts";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { createApi, JUNIORS } from "./api";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";
import { portraitPng, hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * From the landing page to the first vote on a phone (390×844), walked the
 * way a new first-year would, counting every tap on the page: a button, a
 * choice, a checkbox, and a text field that was not already focused. Typing
 * is not a tap (the fields typed are counted apart), nor is what happens
 * outside the page (the photo picker). Where the app moves on by itself the
 * walker waits for it; where it does not, it taps Next or Verify like a
 * student would, so the same walk measures any version of the wizard.
 */

const TAP_BUDGET = 18;
/** How long a step may take to move on by itself before the student taps on. */
const SELF_ADVANCE_MS = 2_000;

const { latestCode, latestEmailCode } = createApi(baseURL, "203.0.113.191");

interface Walk {
  taps: number;
  typed: number;
  screens: { name: string; taps: number }[];
}

type Kind = "mobile" | "desktop";
/** A phone as in the budget, and a laptop (1366×768) for the screenshots of the same screens. */
const SIZES = { mobile: { width: 390, height: 844 }, desktop: { width: 1366, height: 768 } } as const;

function walker(page: Page, kind: Kind) {
  const walk: Walk = { taps: 0, typed: 0, screens: [] };
  const current = () => walk.screens[walk.screens.length - 1]!;
  let shots = 0;
  return {
    walk,
    screen(name: string) {
      walk.screens.push({ name, taps: 0 });
    },
    /** e2e/screenshots/first-vote-<kind>-NN-<what>.png, once what it shows is there. */
    async shot(what: string) {
      await animationsSettled(page);
      const name = `first-vote-${kind}-${String(++shots).padStart(2, "0")}-${what.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`;
      await saveScreenshot(page, name);
    },
    async tap(target: Locator) {
      await (kind === "mobile" ? target.tap() : target.click());
      walk.taps += 1;
      current().taps += 1;
    },
    /** Types into a field, tapping it first unless the app already focused it. */
    async type(field: Locator, text: string) {
      await field.waitFor();
      const focused = await field.evaluate((el) => el === document.activeElement);
      if (!focused) await this.tap(field);
      await page.keyboard.type(text);
      walk.typed += 1;
    },
    /** Waits for `arrived` to show; if the app does not move on by itself, taps `button` first. */
    async onwards(arrived: Locator, button: Locator) {
      try {
        await arrived.waitFor({ timeout: SELF_ADVANCE_MS });
      } catch {
        await this.tap(button);
        await arrived.waitFor();
      }
    },
  };
}

const h1 = (page: Page, name: string) => page.getByRole("heading", { level: 1, name });
const nextButton = (page: Page) => page.getByRole("button", { name: "Next", exact: true });

describe("the first two minutes", () => {
  const chromium = useBrowser();

  it.each<Kind>(["mobile", "desktop"])(
    `a new student gets from the landing page to the first vote in at most ${TAP_BUDGET} taps (%s)`,
    { timeout: 180_000 },
    async (kind) => {
      const digits = `2027${String(Math.floor(Math.random() * 1_000_000)).padStart(6, "0")}`;
      const { page, errors } = await chromium.open(kind, `${baseURL}/`, { viewport: SIZES[kind] });
      const w = walker(page, kind);

      w.screen("landing: who do you want to see?");
      await w.tap(page.getByRole("dialog").getByRole("button", { name: "Girls" }));
      w.screen("landing: preview round");
      await w.tap(page.getByRole("link", { name: SCREEN_TEXT.joinToStartVoting }).first());

      w.screen("sign-up: first name");
      await h1(page, "Create your account").waitFor();
      await w.shot("first name");
      await w.type(page.getByLabel("First name"), "Robin");
      await w.tap(nextButton(page));

      w.screen("sign-up: school");
      await h1(page, "Where do you study?").waitFor();
      await page.getByRole("radio").first().waitFor();
      await w.shot("school");
      await w.tap(
        page
          .locator("label")
          .filter({ has: page.getByRole("radio") })
          .first(),
      );
      await w.onwards(h1(page, "When do you graduate?"), nextButton(page));

      w.screen("sign-up: class year");
      await w.shot("class year");
      await w.tap(page.locator("label", { hasText: String(JUNIORS) }));
      await w.onwards(h1(page, "Guy or girl?"), nextButton(page));

      w.screen("sign-up: guy or girl");
      await w.shot("guy or girl");
      await w.tap(page.locator("label", { hasText: "Guy" }));
      await w.onwards(h1(page, "What's your Instagram?"), nextButton(page));

      w.screen("sign-up: Instagram");
      await w.shot("instagram");
      await w.type(page.getByLabel("Instagram"), "robin.e2e");
      await w.tap(nextButton(page));

      w.screen("sign-up: phone");
      await h1(page, "Verify your phone").waitFor();
      await w.shot("phone");
      await w.tap(page.getByRole("checkbox", { name: SMS_CONSENT_TEXT }));
      await w.tap(page.getByRole("checkbox", { name: TERMS_CONSENT_TEXT }));
      await w.type(page.getByLabel("Phone number"), digits);
      await w.shot("phone, number typed");
      await w.tap(page.getByRole("button", { name: "Send Code" }));
      const smsCode = page.getByLabel("Verification code");
      await smsCode.waitFor();
      await w.shot("phone, code sent");
      await expect.poll(() => latestCode(`+1${digits}`).catch(() => null)).not.toBeNull();
      await w.type(smsCode, await latestCode(`+1${digits}`));
      await w.onwards(h1(page, "Add your photo"), page.getByRole("button", { name: "Verify Code" }));

      w.screen("sign-up: photo");
      await w.shot("photo");
      const [chooser] = await Promise.all([
        page.waitForEvent("filechooser"),
        w.tap(page.getByText("Choose photo", { exact: true })),
      ]);
      await chooser.setFiles({ name: "me.png", mimeType: "image/png", buffer: portraitPng(...hueColors(300)) });
      await page.locator(".cropper-crop-box").waitFor();
      await w.shot("photo, crop");
      await w.tap(page.getByRole("button", { name: "Preview Crop" }));
      await page.getByRole("img", { name: "Your cropped profile photo" }).waitFor();
      await w.shot("photo, preview");
      await w.tap(page.getByRole("button", { name: "Complete" }));

      w.screen("home: school e-mail");
      await page.waitForURL(`${baseURL}/home`);
      const email = page.getByRole("textbox", { name: "School e-mail" });
      await expect.poll(() => email.getAttribute("placeholder")).toMatch(/^you@(?!school\.edu)/);
      await w.shot("school e-mail");
      const address = `robin.${digits.slice(-6)}@${(await email.getAttribute("placeholder"))!.slice("you@".length)}`;
      await w.type(email, address);
      await w.tap(page.getByRole("button", { name: "Send code" }));
      const emailCode = page.getByLabel("Verification code");
      await emailCode.waitFor();
      await w.shot("school e-mail, code sent");
      await expect.poll(() => latestEmailCode(address).catch(() => null)).not.toBeNull();
      await w.type(emailCode, await latestEmailCode(address));
      const firstVote = page.getByRole("button", { name: /^Vote for / }).first();
      await w.onwards(firstVote, page.getByRole("button", { name: "Verify e-mail" }));

      w.screen("home: first round");
      await w.tap(firstVote);
      await page.getByText("Vote sent 🤩").first().waitFor();
      await w.shot("first vote sent");

      // At /login a moment later (another browser), the same number waits for the server's interval, counted down.
      const login = await chromium.open(kind, `${baseURL}/login`, { viewport: SIZES[kind] });
      await login.page.getByLabel("Phone number").pressSequentially(digits);
      await login.page.getByRole("button", { name: "Send Code" }).click();
      await login.page.getByRole("button", { name: /^Send Code in \d+s$/ }).waitFor();
      await saveScreenshot(login.page, `first-vote-${kind}-login-countdown`);

      const { taps, typed, screens } = w.walk;
      console.log(
        `Landing → first vote: ${taps} taps, ${typed} typed fields, ${screens.length} screens\n` +
          screens.map((s) => `  ${String(s.taps).padStart(2)}  ${s.name}`).join("\n"),
      );
      expect(errors.filter((e) => !/status of 40[34]/.test(e))).toEqual([]);
      expect(login.errors.filter((e) => !/status of 429/.test(e))).toEqual([]);
      if (kind === "mobile") expect(taps).toBeLessThanOrEqual(TAP_BUDGET);
    },
  );
});

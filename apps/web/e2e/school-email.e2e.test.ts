import { SCHOOL_EMAIL_MESSAGES, SCREEN_TEXT } from "@quad/contracts";
import { describe, expect, inject, it } from "vitest";
import { SETTINGS_TEXT } from "../src/features/settings/texts";
import { createApi, openSignedIn } from "./api";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * Proving a school address in real Chromium against the real server: until
 * then /home shows the verification screen on a laptop as on a phone, and
 * Settings proves (and later shows) the private address.
 */

const { createStudent, latestEmailCode, openRound } = createApi(baseURL, "203.0.113.171");

describe("school e-mail", () => {
  const chromium = useBrowser();

  it(
    "a student who has not proved an address sees the verification screen, proves one in Settings, and then gets rounds",
    { timeout: 120_000 },
    async () => {
      const quinn = await createStudent(
        "+12027400301",
        { firstName: "Quinn", gender: "female", preference: "male", colors: hueColors(200) },
        { member: false },
      );
      await expect(openRound(quinn)).rejects.toThrow(/403.*Verify your school e-mail to start voting/);

      const { page: laptop, errors: laptopErrors } = await chromium.open("desktop", `${baseURL}/terms`);
      await openSignedIn(laptop, baseURL, quinn, "/home");
      await laptop.getByRole("heading", { level: 2, name: SCHOOL_EMAIL_MESSAGES.verifyToVote }).waitFor();
      expect(await laptop.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).count()).toBe(0);
      await expect
        .poll(() => laptop.getByRole("textbox", { name: "School e-mail" }).getAttribute("placeholder"))
        .toMatch(/^you@.+\..+/);
      await saveScreenshot(laptop, "verify-school-email-desktop");
      expect(laptopErrors).toEqual([]);

      const { page, errors } = await chromium.open("mobile", `${baseURL}/terms`);
      await openSignedIn(page, baseURL, quinn, "/settings");
      await page.getByRole("heading", { level: 1, name: SETTINGS_TEXT.title }).waitFor();
      const section = page.getByRole("region", { name: "School e-mail" });
      const field = section.getByRole("textbox", { name: "School e-mail" });
      await expect.poll(() => field.getAttribute("placeholder")).toMatch(/^you@.+\..+/);
      const domain = (await field.getAttribute("placeholder"))!.slice("you@".length);
      const address = `quinn.e2e@${domain}`;
      await field.fill(address);
      await section.getByRole("button", { name: "Send code" }).click();
      const code = section.getByLabel("Verification code");
      await code.waitFor();
      await code.fill(await latestEmailCode(address));
      await section.getByText("Verified", { exact: true }).waitFor();
      await section.getByText(address).waitFor();
      await section.scrollIntoViewIfNeeded();
      await animationsSettled(page);
      await saveScreenshot(page, "settings-school-email");

      // Home now has rounds.
      await page.getByRole("link", { name: "Home" }).click();
      await page
        .getByRole("button", { name: /^Vote for / })
        .first()
        .waitFor();
      expect(errors.filter((e) => !/status of 403/.test(e))).toEqual([]);
    },
  );
});

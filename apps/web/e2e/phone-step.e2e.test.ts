import { SMS_CONSENT_TEXT, TERMS_CONSENT_TEXT } from "@quad/contracts";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";

const baseURL = inject("baseURL");

/**
 * The sign-up's phone step shows one primary (gradient) action at a time:
 * Send Code until a code is sent, then the footer's Verify Code.
 */

/** The visible buttons drawn with the brand gradient, by name. */
function gradientButtons(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("button"))
      .filter((button) => button.getClientRects().length > 0)
      .filter((button) => getComputedStyle(button).backgroundImage.includes("gradient"))
      .map((button) => button.textContent?.trim() ?? ""),
  );
}

describe("the phone step", () => {
  const chromium = useBrowser();

  for (const kind of ["mobile", "desktop"] as const) {
    it(`has one primary action before and after the code is sent (${kind})`, async () => {
      const viewport = kind === "mobile" ? { width: 390, height: 844 } : { width: 1366, height: 768 };
      const { page, errors } = await chromium.open(kind, `${baseURL}/opt-in`, { viewport });
      await page.getByRole("heading", { level: 1, name: "Verify your phone" }).waitFor();
      await page.getByRole("checkbox", { name: SMS_CONSENT_TEXT }).check();
      await page.getByRole("checkbox", { name: TERMS_CONSENT_TEXT }).check();
      const digits = `2027480${kind === "mobile" ? 401 : 402}`;
      await page.getByLabel("Phone number").pressSequentially(digits);
      await animationsSettled(page);
      await saveScreenshot(page, `phone-step-before-code-${kind}`);
      expect(await gradientButtons(page)).toEqual(["Send Code"]);

      await page.getByRole("button", { name: "Send Code" }).click();
      await page.getByLabel("Verification code").waitFor();
      await animationsSettled(page);
      await saveScreenshot(page, `phone-step-code-sent-${kind}`);
      expect(await gradientButtons(page)).toEqual(["Verify Code"]);
      expect(errors).toEqual([]);
    });
  }
});

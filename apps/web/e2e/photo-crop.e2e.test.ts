import type { AuthTokens, MeUser, School } from "@quad/contracts";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { PHOTO_TEXT } from "../src/features/auth/signup/steps/photo-texts";
import { createApi, JUNIORS, openSignedIn, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";
import { hueColors, portraitPng } from "./portrait";

const baseURL = inject("baseURL");

/**
 * The sign-up's photo step in real Chromium: a tap on Preview Crop made the
 * moment the cropper shows, before cropperjs has the photo, always ends in the
 * preview, and the wait in between says "Loading photo…".
 */

const { api, latestCode } = createApi(baseURL, "203.0.113.201");

/** A student whose phone is verified and whose profile lacks only the photo: the wizard opens at the photo step. */
async function studentWithoutPhoto(phone: string): Promise<Student> {
  const { codeRequestId } = await api<{ codeRequestId: string }>("/auth/send-code", {
    method: "POST",
    body: JSON.stringify({ phone }),
  });
  const tokens = await api<AuthTokens>("/auth/verify-code", {
    method: "POST",
    body: JSON.stringify({ phone, code: await latestCode(phone), codeRequestId, consents: { sms: true, terms: true } }),
  });
  const [school] = await api<School[]>("/schools");
  const { user } = await api<{ user: MeUser }>("/users/update", {
    method: "PATCH",
    token: tokens.token,
    body: JSON.stringify({
      firstName: "Casey",
      university: school!.id,
      graduationYear: JUNIORS,
      gender: "female",
      instagramHandle: `@casey.${phone.slice(-4)}`,
    }),
  });
  return { phone, tokens, me: user };
}

const photoStep = (page: Page) => page.getByRole("heading", { level: 1, name: "Add your photo" }).waitFor();

/**
 * Clicks Preview Crop from inside the page in the same task the cropper's
 * photo element is inserted (before the next frame is drawn). Resolves with
 * whether cropperjs had already built its crop box then, i.e. was ready.
 */
function tapPreviewWhenCropperAppears(page: Page): Promise<{ readyAtTap: boolean; enabledAtTap: boolean }> {
  return page.evaluate(
    (label) =>
      new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (!document.querySelector('img[alt="Your photo, to crop"]')) return;
          observer.disconnect();
          const button = Array.from(document.querySelectorAll("button")).find(
            (candidate) => candidate.textContent?.trim() === label,
          )!;
          const readyAtTap = document.querySelector(".cropper-crop-box") !== null;
          const enabledAtTap = !button.disabled;
          button.click();
          resolve({ readyAtTap, enabledAtTap });
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
    PHOTO_TEXT.previewCrop,
  );
}

describe("the photo step's Preview Crop", () => {
  const chromium = useBrowser();

  it(
    "a tap in the frame the cropper appears ends in the preview, twenty photos over",
    { timeout: 180_000 },
    async () => {
      const student = await studentWithoutPhoto("+12027480101");
      const { page, errors } = await chromium.open("mobile", `${baseURL}/terms`);
      await openSignedIn(page, baseURL, student, "/signup");
      await photoStep(page);
      const preview = page.getByRole("img", { name: "Your cropped profile photo" });
      const complete = page.getByRole("button", { name: "Complete" });

      const taps: { readyAtTap: boolean; enabledAtTap: boolean }[] = [];
      for (let run = 0; run < 20; run++) {
        const tapped = tapPreviewWhenCropperAppears(page);
        await page.getByLabel("Choose photo").setInputFiles({
          name: `photo-${run}.png`,
          mimeType: "image/png",
          buffer: portraitPng(...hueColors((run * 37) % 360)),
        });
        taps.push(await tapped);
        await preview.waitFor({ timeout: 10_000 });
        expect(await complete.isEnabled(), `run ${run}: Complete`).toBe(true);
        await page.getByRole("button", { name: PHOTO_TEXT.removeImage }).click();
        await page.getByLabel("Choose photo").waitFor({ state: "attached" });
      }
      // Every tap landed on a live button, and before cropperjs was ready: the race itself.
      expect(taps.filter((tap) => tap.enabledAtTap)).toHaveLength(20);
      expect(taps.filter((tap) => !tap.readyAtTap)).toHaveLength(20);
      expect(errors).toEqual([]);
    },
  );

  it("a tap while the cropper is still loading waits, saying so, and then previews", { timeout: 90_000 }, async () => {
    const student = await studentWithoutPhoto("+12027480102");
    // A fresh page without the service worker, so the cropper's code comes from the network and can be held back.
    const { page, errors } = await chromium.open("mobile", `${baseURL}/terms`, { serviceWorkers: "block" });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/image-cropper[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await openSignedIn(page, baseURL, student, "/signup");
    await photoStep(page);
    await page.getByLabel("Choose photo").setInputFiles({
      name: "photo.png",
      mimeType: "image/png",
      buffer: portraitPng(...hueColors(200)),
    });
    const loading = page.getByText(PHOTO_TEXT.loading);
    await loading.waitFor();
    const previewButton = page.getByRole("button", { name: PHOTO_TEXT.previewCrop });
    await previewButton.tap();
    expect(await previewButton.getAttribute("aria-busy")).toBe("true");
    await animationsSettled(page);
    await saveScreenshot(page, "photo-crop-loading-mobile");

    release();
    await page.getByRole("img", { name: "Your cropped profile photo" }).waitFor();
    expect(await page.getByRole("button", { name: "Complete" }).isEnabled()).toBe(true);
    await animationsSettled(page);
    await saveScreenshot(page, "photo-crop-preview-mobile");
    expect(errors).toEqual([]);
  });
});

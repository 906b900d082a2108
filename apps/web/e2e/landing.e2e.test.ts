import { SCREEN_TEXT } from "@quad/contracts";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";

const baseURL = inject("baseURL");

interface Box {
  top: number;
  bottom: number;
}

/** The Log in / Sign up bar, "Join to start voting" and the anonymity line, in viewport coordinates. */
function boxes(page: Page): Promise<{ bar: Box; join: Box; note: Box; viewport: number }> {
  return page.evaluate((noteText) => {
    const box = (element: Element | null | undefined): Box => {
      const rect = element!.getBoundingClientRect();
      return { top: rect.top, bottom: rect.bottom };
    };
    const note = Array.from(document.querySelectorAll("p")).find((p) => p.textContent === noteText);
    const join = Array.from(document.querySelectorAll("a")).find((a) => a.textContent === "Join to start voting");
    return {
      bar: box(document.querySelector('nav[aria-label="Account"]')),
      join: box(join),
      note: box(note),
      viewport: window.innerHeight,
    };
  }, SCREEN_TEXT.anonymityNote);
}

const overlaps = (a: Box, b: Box) => a.top < b.bottom && b.top < a.bottom;
const onScreen = (box: Box, viewport: number) => box.bottom > 0 && box.top < viewport;

/** The texts the bar covers while both are on screen. */
function covered({ bar, join, note, viewport }: Awaited<ReturnType<typeof boxes>>): string[] {
  const texts = [
    ["Join to start voting", join],
    ["anonymity line", note],
  ] as const;
  return texts
    .filter(([, text]) => onScreen(text, viewport) && onScreen(bar, viewport) && overlaps(bar, text))
    .map(([name]) => name);
}

/** The preview round is drawn: its photos loaded and its entrance finished. */
async function previewShown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const photos = Array.from(document.querySelectorAll<HTMLImageElement>("article img"));
    return photos.length > 0 && photos.every((img) => img.complete && img.naturalWidth > 0);
  });
  await animationsSettled(page);
}

/** Scrolls the page from top to bottom, checking at each step that the bar covers neither text. */
async function expectNothingCovered(page: Page, state: string): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 60) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    // The bar follows the observer's next callback: wait for it to have answered this scroll.
    await expect
      .poll(async () => covered(await boxes(page)), { message: `${state}: what the bar covers at scroll ${y}` })
      .toEqual([]);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

describe("the landing page on a phone", () => {
  const chromium = useBrowser();

  it("the Log in / Sign up bar never covers 'Join to start voting' or the anonymity line, at any scroll", async () => {
    const { page, errors } = await chromium.open("mobile", `${baseURL}/`);
    const question = page.getByRole("dialog", { name: SCREEN_TEXT.whoDoYouWantToSee });
    // Before a choice (the question dismissed), then with the preview round.
    await question.waitFor();
    await page.keyboard.press("Escape");
    await question.waitFor({ state: "detached" });
    await expectNothingCovered(page, "without a choice");
    await page.getByRole("button", { name: "Girls" }).click();
    await previewShown(page);
    await saveScreenshot(page, "landing-preview-first-screen-mobile");
    await expectNothingCovered(page, "with the preview");

    // At the end of the page the bar is in its place, under everything.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(async () => {
        const { bar, note } = await boxes(page);
        return bar.top - note.bottom;
      })
      .toBeGreaterThanOrEqual(0);
    await saveScreenshot(page, "landing-preview-end-mobile");
    expect(errors).toEqual([]);

    // A laptop (1366×768) keeps the bar in its place at the end of the page, as before.
    const laptop = await chromium.open("desktop", `${baseURL}/`);
    await laptop.page.setViewportSize({ width: 1366, height: 768 });
    await laptop.page
      .getByRole("dialog", { name: SCREEN_TEXT.whoDoYouWantToSee })
      .getByRole("button", { name: "Girls" })
      .click();
    await previewShown(laptop.page);
    const onLaptop = await boxes(laptop.page);
    expect(onLaptop.bar.top).toBeGreaterThanOrEqual(onLaptop.note.bottom);
    await saveScreenshot(laptop.page, "landing-preview-first-screen-desktop");
    expect(laptop.errors).toEqual([]);
  });
});

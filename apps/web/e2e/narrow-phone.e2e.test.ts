import { SCREEN_TEXT } from "@quad/contracts";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { SETTINGS_TEXT } from "../src/features/settings/texts";
import { createApi, openSignedIn, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * A 320 px phone, the narrowest we design for, and a 390 px one: the
 * greeting, "Change photo" and the inbox's "Refresh" are never cut short, and
 * the header shows the school's whole name where it has the room.
 */

const { createStudent } = createApi(baseURL, "203.0.113.204");

const PHONES = [
  { width: 320, height: 700 },
  { width: 390, height: 844 },
] as const;

/** Why `locator`'s text is cut, if it is: an ellipsis or clipping inside it, or an edge past the window's. */
function cut(locator: Locator): Promise<string | null> {
  return locator.evaluate((element) => {
    const boxes = [element, ...Array.from(element.querySelectorAll("*"))];
    for (const box of boxes) {
      if (box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== "visible") {
        return `<${box.tagName.toLowerCase()}> "${box.textContent}" is ${box.scrollWidth} px wide in ${box.clientWidth} px`;
      }
      if (box.scrollHeight > box.clientHeight + 1 && getComputedStyle(box).overflowY !== "visible") {
        return `<${box.tagName.toLowerCase()}> "${box.textContent}" has lines hidden`;
      }
    }
    const { left, right } = element.getBoundingClientRect();
    if (left < 0 || right > window.innerWidth) return `"${element.textContent}" runs past the window`;
    return null;
  });
}

async function settled(page: Page, name: string): Promise<void> {
  await animationsSettled(page);
  await saveScreenshot(page, name);
}

describe("narrow phones", () => {
  const chromium = useBrowser();
  let student: Student;

  beforeAll(async () => {
    // The first school, with a long name: "Arizona State University".
    student = await createStudent("+12027480501", { firstName: "Maximilian", gender: "male", colors: hueColors(250) });
  }, 60_000);

  for (const viewport of PHONES) {
    it(`home, settings and the inbox keep their words whole (${viewport.width} px)`, async () => {
      const { page, errors } = await chromium.open("mobile", `${baseURL}/terms`, { viewport });
      await openSignedIn(page, baseURL, student);
      const entry = page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou });
      await entry.waitFor();
      await settled(page, `narrow-home-${viewport.width}`);
      expect(await cut(page.getByRole("heading", { level: 1 }))).toBeNull();
      expect(await cut(entry)).toBeNull();
      const school = page.locator("header").getByText(student.me.schoolName!);
      // Two lines hold it at 390 px; at 320 px the actions leave too little room, and it may give way.
      if (viewport.width >= 390) expect(await cut(school)).toBeNull();

      await entry.click();
      const inbox = page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou });
      const refresh = inbox.getByRole("button", { name: "Refresh" });
      await refresh.waitFor();
      await settled(page, `narrow-inbox-${viewport.width}`);
      expect(await cut(refresh)).toBeNull();
      await inbox.getByRole("button", { name: "Close", exact: true }).click();

      await page.getByRole("link", { name: "Settings" }).click();
      await page.getByRole("heading", { level: 1, name: SETTINGS_TEXT.title }).waitFor();
      const changePhoto = page.getByRole("button", { name: "Change photo" });
      await changePhoto.waitFor();
      await settled(page, `narrow-settings-${viewport.width}`);
      expect(await cut(changePhoto)).toBeNull();
      expect(errors).toEqual([]);
    });
  }
});

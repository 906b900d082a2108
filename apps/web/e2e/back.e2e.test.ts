import { SCREEN_TEXT } from "@quad/contracts";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { createApi, openSignedIn } from "./api";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * The browser's Back closes what is open: a dialog takes one history entry
 * while open and gives it back when closed, so Back closes the top dialog and
 * never leaves Quad with a dialog open, and closing by button leaves no stale
 * entries behind.
 */

const { createStudent, voteFor } = createApi(baseURL, "203.0.113.61");

const dialog = (page: Page, name: string) => page.getByRole("dialog", { name, exact: true });
const path = (page: Page) => new URL(page.url()).pathname;
const openDialogs = (page: Page) => page.getByRole("dialog").count();
const dialogDepth = (page: Page) =>
  page.evaluate(() => (history.state as { quadDialogDepth?: number } | null)?.quadDialogDepth ?? 0);

/**
 * The app has answered the last history move: the entry it is on holds as
 * many dialogs as are open (it closed those Back left, and took back or
 * stepped over any entry it should).
 */
async function historySettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      ((history.state as { quadDialogDepth?: number } | null)?.quadDialogDepth ?? 0) ===
      document.querySelectorAll("dialog[open]").length,
  );
}

async function back(page: Page): Promise<void> {
  await page.goBack({ waitUntil: "commit" });
  await historySettled(page);
}

/** What has keyboard focus, if it is outside the top open dialog and not the page itself (null otherwise). */
const focusOutsideTopDialog = (page: Page) =>
  page.evaluate(() => {
    const open = document.querySelectorAll("body > dialog[open]");
    const top = open[open.length - 1];
    const active = document.activeElement;
    if (!top || !active || active === document.body || top.contains(active)) return null;
    return active.outerHTML.slice(0, 80);
  });

describe("the browser's Back", () => {
  const chromium = useBrowser();

  it("closes the top dialog, one at a time, and stays on /home; a dialog closed by its button leaves no entry", async () => {
    const student = await createStudent("+12027420101", {
      firstName: "Noor",
      gender: "female",
      preference: "male",
      colors: hueColors(40),
    });
    const voter = await createStudent("+12027420102", {
      firstName: "Theo",
      gender: "male",
      preference: "female",
      colors: hueColors(210),
    });
    await voteFor(voter, student);

    const { page, errors } = await chromium.open("mobile", `${baseURL}/terms`);
    await openSignedIn(page, baseURL, student);
    const seeVotes = page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou });
    await seeVotes.waitFor();

    // "Voted on you", then a vote's details over it: Back closes the details, then the list.
    await seeVotes.click();
    const list = dialog(page, SCREEN_TEXT.votedOnYou);
    await list.getByRole("listitem").first().getByRole("button", { name: "View" }).click();
    await list.page().getByText(SCREEN_TEXT.votedOnYouFor).waitFor();
    expect(await openDialogs(page)).toBe(2);

    await back(page);
    expect(await openDialogs(page)).toBe(1);
    expect(await list.isVisible()).toBe(true);
    expect(path(page)).toBe("/home");

    await back(page);
    expect(await openDialogs(page)).toBe(0);
    expect(path(page)).toBe("/home");

    // A card's sheet closes on Back; so does the report dialog that takes the sheet's place.
    const card = page.getByRole("article").first();
    const name = (await card.getByRole("heading").textContent())!.trim();
    await card.getByRole("button", { name: `More options for ${name}` }).click();
    await dialog(page, name).waitFor();
    await back(page);
    expect(await openDialogs(page)).toBe(0);
    await card.getByRole("button", { name: `More options for ${name}` }).click();
    await dialog(page, name)
      .getByRole("button", { name: new RegExp(`^Report ${name}`) })
      .click();
    await dialog(page, `Report ${name}`).waitFor();
    await back(page);
    expect(await openDialogs(page)).toBe(0);
    expect(path(page)).toBe("/home");

    // Closed by its ×, by Escape, and by a tap outside: each time its entry goes too,
    // so the next Back goes where it would have gone without the dialog (/terms).
    await seeVotes.click();
    await list.getByRole("button", { name: "Close", exact: true }).click();
    await seeVotes.click();
    await list.waitFor();
    // The browser's modal <dialog>: focus starts inside, Tab never reaches the page behind, which does
    // not scroll, and Escape gives focus back to what opened it.
    expect(await list.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    for (let press = 0; press < 6; press++) {
      await page.keyboard.press("Tab");
      expect(await focusOutsideTopDialog(page)).toBeNull();
    }
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe("hidden");
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "detached" });
    expect(await seeVotes.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe("hidden");
    await seeVotes.click();
    await list.waitFor();
    await page.mouse.click(8, 420); // the backdrop, beside the panel
    await list.waitFor({ state: "detached" });
    await expect.poll(() => dialogDepth(page)).toBe(0);
    await back(page);
    expect(path(page)).toBe("/terms");
    expect(errors).toEqual([]);
  });

  it("Back from /signup to / shows the preview without asking 'Who do you want to see?' again", async () => {
    for (const kind of ["mobile", "desktop"] as const) {
      const { page, errors } = await chromium.open(kind, `${baseURL}/`);
      const question = dialog(page, SCREEN_TEXT.whoDoYouWantToSee);
      await question.getByRole("button", { name: "Girls" }).click();
      await question.waitFor({ state: "detached" });
      await page.locator("article img").first().waitFor();

      await page.getByRole("link", { name: SCREEN_TEXT.joinToStartVoting }).click();
      await page.waitForURL(`${baseURL}/signup?preference=female`);
      await page.getByRole("heading", { level: 1, name: "Create your account" }).waitFor();

      await back(page);
      expect(path(page)).toBe("/");
      await page.locator("article img").first().waitFor();
      expect(await openDialogs(page)).toBe(0);
      expect(await page.getByRole("radio", { name: "Girls" }).isChecked()).toBe(true);
      await animationsSettled(page);
      await saveScreenshot(page, `back-to-landing-${kind}`);
      expect(errors).toEqual([]);
    }
  });
});

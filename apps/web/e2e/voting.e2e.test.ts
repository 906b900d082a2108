import { SCREEN_TEXT, SKIPS_IN_A_ROW, TOASTS, VOTES_PER_BATCH, type Gender } from "@quad/contracts";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { createApi, openSignedIn, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser, roundShown, type OpenedPage } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * The voting loop in real Chromium against the real server and its demo
 * students: the landing preview, and a signed-in student's votes and skips
 * up to "Out of Votes" and out of skips.
 */

const { createStudent: signUp, openRound, vote } = createApi(baseURL, "203.0.113.77");

function createStudent(phone: string, firstName: string, gender: Gender, hue: number): Promise<Student> {
  return signUp(phone, { firstName, gender, colors: hueColors(hue) });
}

/** Votes through the API, as if on another device. */
async function voteThroughApi(student: Student, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await vote(student, await openRound(student));
}

// ---------------------------------------------------------------- the browser side

async function openHomeAs(opened: OpenedPage, student: Student): Promise<void> {
  await openSignedIn(opened.page, baseURL, student);
}

function voteButtons(page: Page) {
  return page.getByRole("button", { name: /^Vote for / });
}

function trpcResponse(page: Page, procedure: string) {
  return page.waitForResponse((response) => response.url().includes(`/api/trpc/${procedure}`));
}

/** Clicks the first Vote and waits for the vote and the next round (or the cooldown) to arrive. */
async function voteInBrowser(page: Page): Promise<void> {
  const stored = trpcResponse(page, "rounds.vote");
  const next = trpcResponse(page, "rounds.open");
  await voteButtons(page).first().click();
  expect((await stored).status()).toBe(200);
  await next;
}

describe("voting", () => {
  const chromium = useBrowser();

  async function open(kind: "mobile" | "desktop", path: string): Promise<OpenedPage> {
    return chromium.open(kind, `${baseURL}${path}`);
  }

  it("a visitor picks Girls, sees two students, votes and lands on /signup with the preference", async () => {
    for (const kind of ["mobile", "desktop"] as const) {
      const { page, errors } = await open(kind, "/");
      const question = page.getByRole("dialog", { name: SCREEN_TEXT.whoDoYouWantToSee });
      await question.waitFor();
      await animationsSettled(page);
      await saveScreenshot(page, `voting-landing-modal-${kind}`);

      const preview = page.waitForResponse((r) => r.url().includes("/api/prompts/unauthenticated?gender=female"));
      await question.getByRole("button", { name: "Girls" }).click();
      expect((await preview).status()).toBe(200);
      await roundShown(page);
      expect(await page.getByRole("article").count()).toBe(2);
      expect(await page.getByRole("link", { name: SCREEN_TEXT.joinToStartVoting }).getAttribute("href")).toBe(
        "/signup?preference=female",
      );
      if (kind === "desktop") {
        // On a 1366×768 laptop the question reads first and the call to action shows without scrolling.
        await page.setViewportSize({ width: 1366, height: 768 });
        const cta = (await page.getByRole("link", { name: SCREEN_TEXT.joinToStartVoting }).boundingBox())!;
        expect(cta.y + cta.height).toBeLessThanOrEqual(768);
        const question = (await page.getByRole("heading", { level: 2 }).first().boundingBox())!;
        const card = (await page.getByRole("article").first().boundingBox())!;
        expect(question.y).toBeLessThan(card.y + card.height / 3);
      }
      await saveScreenshot(page, `voting-preview-${kind}`);
      if (kind === "mobile") await saveScreenshot(page, "voting-preview-mobile-full", { fullPage: true });

      await voteButtons(page).first().click();
      await page.waitForURL(`${baseURL}/signup?preference=female`);
      expect(new URL(page.url()).searchParams.get("preference")).toBe("female");
      expect(errors).toEqual([]);
    }
  });

  it(`a signed-in student votes ${VOTES_PER_BATCH} times and sees Out of Votes`, async () => {
    const mobile = await open("mobile", "/terms");
    const maya = await createStudent("+12027300101", "Maya", "female", 280);
    await openHomeAs(mobile, maya);
    await roundShown(mobile.page);
    // Maya has not chosen yet: she sees guys, the other gender.
    expect(await mobile.page.getByRole("radio", { name: "Guys" }).isChecked()).toBe(true);
    await saveScreenshot(mobile.page, "voting-home-mobile");
    await saveScreenshot(mobile.page, "voting-home-mobile-full", { fullPage: true });

    for (let vote = 1; vote <= VOTES_PER_BATCH; vote++) {
      await voteInBrowser(mobile.page);
      if (vote < VOTES_PER_BATCH) await mobile.page.locator("section[aria-busy=false] h2").waitFor();
    }
    await mobile.page.getByText(TOASTS.voteSent).first().waitFor();

    const outOfVotes = mobile.page.getByRole("dialog", { name: SCREEN_TEXT.outOfVotesTitle });
    await outOfVotes.waitFor();
    expect(await outOfVotes.getByText(SCREEN_TEXT.outOfVotesBody).isVisible()).toBe(true);
    expect(await outOfVotes.getByText(/^Time left: (1 hour 0 minutes|59 minutes \d+ seconds?)$/).count()).toBe(1);
    await animationsSettled(mobile.page);
    await saveScreenshot(mobile.page, "voting-out-of-votes-mobile");

    // Closed, the round's place keeps the countdown.
    await outOfVotes.getByRole("button", { name: "Got it" }).click();
    await mobile.page.getByText(/^Time left: /).waitFor();
    await saveScreenshot(mobile.page, "voting-cooldown-mobile");
    expect(mobile.errors).toEqual([]);

    // On a laptop: 11 votes elsewhere, the 12th here.
    const desktop = await open("desktop", "/terms");
    const liam = await createStudent("+12027300102", "Liam", "male", 200);
    await voteThroughApi(liam, VOTES_PER_BATCH - 1);
    await openHomeAs(desktop, liam);
    await roundShown(desktop.page);
    await voteInBrowser(desktop.page);
    await desktop.page.getByRole("dialog", { name: SCREEN_TEXT.outOfVotesTitle }).waitFor();
    await animationsSettled(desktop.page);
    await saveScreenshot(desktop.page, "voting-out-of-votes-desktop");
    expect(desktop.errors).toEqual([]);
  });

  it(`skips ${SKIPS_IN_A_ROW} times in a row, then sees Skip spent with the way to get more, and a tap explains`, async () => {
    const mobile = await open("mobile", "/terms");
    const zoe = await createStudent("+12027300103", "Zoe", "female", 330);
    await openHomeAs(mobile, zoe);
    await roundShown(mobile.page);

    for (let skip = 1; skip <= SKIPS_IN_A_ROW; skip++) {
      const skipped = mobile.page.waitForResponse((r) => r.url().includes("/api/trpc/rounds.skip"));
      await mobile.page.getByRole("button", { name: /^Skip/ }).click();
      expect((await skipped).status()).toBe(200);
      await mobile.page.getByRole("button", { name: `Skip ${SKIPS_IN_A_ROW - skip} left` }).waitFor();
    }
    await roundShown(mobile.page);
    // None left: Skip looks spent and says how to get more; a tap opens "Out of Skips", which says it too.
    const spent = mobile.page.getByRole("button", { name: "Skip 0 left" });
    expect(await spent.isDisabled()).toBe(false);
    expect(await spent.getAttribute("aria-describedby")).toBeTruthy();
    expect(await mobile.page.getByText(SCREEN_TEXT.skipHint).isVisible()).toBe(true);
    await animationsSettled(mobile.page);
    await saveScreenshot(mobile.page, "voting-out-of-skips-mobile");
    await spent.click();
    const outOfSkips = mobile.page.getByRole("dialog", { name: SCREEN_TEXT.outOfSkipsTitle });
    await outOfSkips.getByText(SCREEN_TEXT.outOfSkipsBody).waitFor();
    await outOfSkips.getByRole("button", { name: "Back to voting" }).click();
    expect(mobile.errors).toEqual([]);

    // On a laptop, with the skips already used elsewhere: the home round, then Skip.
    const desktop = await open("desktop", "/terms");
    const kai = await createStudent("+12027300104", "Kai", "male", 170);
    await openHomeAs(desktop, kai);
    await roundShown(desktop.page);
    // On a laptop the question is read first: at the top of its column, level with the cards' photos.
    const promptBox = (await desktop.page.getByRole("heading", { level: 2 }).first().boundingBox())!;
    const cardBox = (await desktop.page.getByRole("article").first().boundingBox())!;
    expect(promptBox.y).toBeLessThan(cardBox.y + cardBox.height / 3);
    await saveScreenshot(desktop.page, "voting-home-desktop");
    for (let skip = 0; skip < SKIPS_IN_A_ROW; skip++) await openRound(kai, true);
    await desktop.page.reload({ waitUntil: "networkidle" });
    await roundShown(desktop.page);
    expect(await desktop.page.getByRole("button", { name: "Skip 0 left" }).isDisabled()).toBe(false);
    expect(await desktop.page.getByText(SCREEN_TEXT.skipHint).isVisible()).toBe(true);
    await animationsSettled(desktop.page);
    await saveScreenshot(desktop.page, "voting-out-of-skips-desktop");
    expect(desktop.errors).toEqual([]);
  });
});

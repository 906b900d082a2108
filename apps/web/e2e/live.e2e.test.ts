import { LOCKED_NAME_PLACEHOLDER, SCREEN_TEXT } from "@quad/contracts";
import { describe, expect, inject, it } from "vitest";
import { createApi, JUNIORS, openSignedIn, SENIORS } from "./api";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");
const { createStudent, voteFor } = createApi(baseURL, "203.0.113.91");

/**
 * The open app is live: two students in two Chromium pages, one votes for
 * the other, and the other's open inbox shows the new card without a reload.
 */
describe("live updates", () => {
  const chromium = useBrowser();

  it("a delivered vote shows up in the recipient's open inbox within 3 s, without a reload", async () => {
    const recipient = await createStudent("+12025550931", {
      firstName: "Marisol",
      gender: "female",
      preference: "male",
      graduationYear: JUNIORS,
      colors: hueColors(300),
    });
    const voter = await createStudent("+12025550932", {
      firstName: "Thaddeus",
      gender: "male",
      preference: "female",
      graduationYear: SENIORS,
      colors: hueColors(30),
    });

    const open = await chromium.open("mobile", `${baseURL}/terms`);
    const page = open.page;
    const streamOpened = page.waitForRequest((request) => request.url().includes("/api/trpc/live.events"));
    await openSignedIn(page, baseURL, recipient);
    await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    const list = page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou, exact: true });
    await list.waitFor();
    expect(await list.getByText(LOCKED_NAME_PLACEHOLDER).count()).toBe(0);
    // The voter's own page, open too: its round keeps working beside the stream.
    const voterPage = await chromium.open("desktop", `${baseURL}/terms`);
    await openSignedIn(voterPage.page, baseURL, voter);

    // The stream is open (it starts a moment after the screen): what follows comes through it.
    await streamOpened;
    const loads: string[] = [];
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) loads.push(frame.url());
    });
    await voteFor(voter, recipient);
    const voted = Date.now();
    // This server delivers at once (its window is a millisecond); the stream hears of a vote about a second
    // after its moment (the delivery tick reads a second behind the clock), then the list is read again.
    await list.getByText(LOCKED_NAME_PLACEHOLDER).first().waitFor({ timeout: 3_000 });
    expect(Date.now() - voted).toBeLessThan(3_000);
    expect(loads).toEqual([]);
    expect(await list.getByText("Thaddeus").count()).toBe(0);
    await animationsSettled(page);
    await saveScreenshot(page, "live-inbox-new-card-mobile");
    expect(open.errors).toEqual([]);
  });

  it("where a proxy blocks the stream, home works as before and says nothing about it", async () => {
    const student = await createStudent("+12025550933", {
      firstName: "Ottoline",
      gender: "female",
      preference: "male",
      graduationYear: JUNIORS,
      colors: hueColors(200),
    });
    const open = await chromium.open("mobile", `${baseURL}/terms`);
    const page = open.page;
    let blocked = 0;
    await page.route(/\/api\/trpc\/live\.events/, (route) => {
      blocked += 1;
      return route.abort("connectionrefused");
    });
    await openSignedIn(page, baseURL, student);
    await expect.poll(() => blocked, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    await page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou, exact: true }).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    // The page's own errors only: the refused connection itself is the browser's network log, not the app's.
    expect(open.errors.filter((error) => !error.includes("ERR_CONNECTION_REFUSED"))).toEqual([]);
  });
});

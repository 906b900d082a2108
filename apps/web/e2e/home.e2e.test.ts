import { SCREEN_TEXT, TOASTS, VOTES_PER_BATCH, type Gender } from "@quad/contracts";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type AxeCore from "axe-core";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { createApi, openSignedIn, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser, roundShown, type OpenedPage } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/** A computed background colour whose channels are all dark (a transparent one counts: the page shows through). */
function isDark(color: string): boolean {
  const [red = 0, green = 0, blue = 0] = (color.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return Math.max(red, green, blue) < 64;
}

/**
 * The home screen's calls and ways out, in real Chromium against the real
 * server: the new-votes count, the pick, the offers after a vote, out of
 * votes, paused, out of skips, the empty inbox, the revealed handle, Boost
 * and Settings' width. Screenshots at 390×844 and 1366×768.
 */

const { api, createStudent: signUp, openRound, vote, voteFor } = createApi(baseURL, "203.0.113.93");
let phones = 0;
const createStudent = (firstName: string, gender: Gender, extra: { instagramHandle?: string } = {}) =>
  signUp(`+1202749${String(3000 + ++phones).padStart(4, "0")}`, {
    firstName,
    gender,
    colors: hueColors(phones * 37),
    ...extra,
  });

const LAPTOP = { viewport: { width: 1366, height: 768 } };
const kinds = ["mobile", "desktop"] as const;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's contrast rule alone (injected with its own source, so the page runs without its CSP). */
async function contrastFailures(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof AxeCore }).axe;
    const results = await axe.run(document, { runOnly: ["color-contrast"], resultTypes: ["violations"] });
    return results.violations.flatMap((v) =>
      v.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary ?? ""}`),
    );
  });
}

const entry = (page: Page) => page.getByRole("button", { name: /^See who voted for you/ });
const newVotes = (student: Student) =>
  api<{ count: number }>("/votes/new-count", { token: student.tokens.token }).then((r) => r.count);

describe("home", () => {
  const chromium = useBrowser();
  const open = async (kind: (typeof kinds)[number], student: Student, path = "/home"): Promise<OpenedPage> => {
    const opened = await chromium.open(kind, `${baseURL}/terms`, kind === "desktop" ? LAPTOP : {});
    await openSignedIn(opened.page, baseURL, student, path);
    return opened;
  };

  it("'See who voted for you' says how many votes are new; opening the inbox clears it on every device", async () => {
    const recipient = await createStudent("Nadia", "female");
    const voters = await Promise.all([createStudent("Omar", "male"), createStudent("Pete", "male")]);
    for (const voter of voters) await voteFor(voter, recipient);
    expect(await newVotes(recipient)).toBe(2);

    const pages: Record<string, OpenedPage> = {};
    for (const kind of kinds) {
      const opened = await chromium.open(kind, `${baseURL}/terms`, kind === "desktop" ? LAPTOP : {});
      pages[kind] = opened;
      const { page } = opened;
      const counted = page.waitForResponse((r) => r.url().includes("/api/trpc/inbox.newVotes"));
      await openSignedIn(page, baseURL, recipient);
      const answer = await counted;
      expect(`${answer.status()} ${await answer.text()}`).toMatch(/^200 .*"count":2\b/);
      await roundShown(page);
      await expect.poll(() => entry(page).textContent()).toMatch(/2 new$/);
      await saveScreenshot(page, `home-new-votes-${kind}`);
    }

    // Opened on the phone: the count starts again there, on the server, and so on the laptop.
    const phone = pages.mobile!.page;
    const marked = phone.waitForResponse((r) => r.url().includes("/api/trpc/inbox.markOpened"));
    await entry(phone).click();
    const inbox = phone.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou });
    await inbox.getByRole("list", { name: "Votes you received" }).waitFor();
    expect((await marked).status()).toBe(200);
    await inbox.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => entry(phone).textContent()).toBe(SCREEN_TEXT.seeWhoVotedForYou);
    expect(await newVotes(recipient)).toBe(0);
    const laptop = pages.desktop!.page;
    await laptop.reload({ waitUntil: "networkidle" });
    await roundShown(laptop);
    await expect.poll(() => entry(laptop).textContent()).toBe(SCREEN_TEXT.seeWhoVotedForYou);
    for (const opened of Object.values(pages)) expect(opened.errors).toEqual([]);
  });

  it("the empty inbox says how votes arrive and what to do meanwhile", async () => {
    const student = await createStudent("Quinn", "female");
    for (const kind of kinds) {
      const { page, errors } = await open(kind, student);
      await entry(page).click();
      const inbox = page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou });
      await inbox.getByText(SCREEN_TEXT.noVotesTitle).waitFor();
      await inbox.getByText(/Votes arrive when classmates pick you/).waitFor();
      await animationsSettled(page);
      await saveScreenshot(page, `inbox-empty-${kind}`);
      await inbox.getByRole("button", { name: "Back to voting" }).click();
      await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
      expect(errors).toEqual([]);
    }
  });

  it("a pick lifts its card at once while the vote travels; the toast keeps clear of the greeting and the switch; notifications are offered after", async () => {
    for (const kind of kinds) {
      const student = await createStudent(`Rae${kind}`, "female");
      const { page, context, errors } = await open(kind, student);
      await roundShown(page);
      // A slow vote, so the pick can be seen held.
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/trpc/rounds.vote**", async (route) => {
        await released;
        await route.continue();
      });
      await page
        .getByRole("button", { name: /^Vote for / })
        .first()
        .click();
      const chosen = page.locator("article", { hasText: "Voted" });
      await chosen.waitFor();
      await animationsSettled(page);
      await saveScreenshot(page, `home-pick-${kind}`);
      release();
      await page.getByText(TOASTS.voteSent, { exact: true }).first().waitFor();
      await page.unroute("**/api/trpc/rounds.vote**");
      await roundShown(page);

      const toast = await page.locator(".Toastify__toast").first().boundingBox();
      for (const covered of [page.getByRole("heading", { level: 1 }), page.getByRole("group", { name: "Show me" })]) {
        const box = (await covered.boundingBox())!;
        const overlaps =
          toast !== null &&
          toast.x < box.x + box.width &&
          box.x < toast.x + toast.width &&
          toast.y < box.y + box.height &&
          box.y < toast.y + toast.height;
        expect(overlaps, `the toast covers ${await covered.textContent()}`).toBe(false);
      }

      const offer = page.getByRole("region", { name: "Know the moment someone votes for you" });
      await offer.waitFor();
      await offer.scrollIntoViewIfNeeded();
      await animationsSettled(page);
      await saveScreenshot(page, `home-after-vote-offer-${kind}`);
      await offer.getByRole("button", { name: "Not now" }).click();
      await expect.poll(() => offer.count()).toBe(0);
      // Within the week, another vote brings no offer.
      await page
        .getByRole("button", { name: /^Vote for / })
        .first()
        .click();
      await roundShown(page);
      expect(await offer.count()).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  // Turning notifications on from the offer is the Settings switch's code (push.e2e.test.ts drives it end to end).
  it("out of votes: the countdown, what arrived meanwhile and the notifications offer", async () => {
    const student = await createStudent("Sana", "female");
    for (let i = 0; i < VOTES_PER_BATCH; i++) await vote(student, await openRound(student));
    await voteFor(await createStudent("Theo", "male"), student);
    for (const kind of kinds) {
      const { page, errors } = await open(kind, student);
      await page.getByText(SCREEN_TEXT.outOfVotesBody).waitFor();
      await page.getByText("Meanwhile: 1 new vote in your inbox.").waitFor();
      const offer = page.getByRole("region", { name: "Get told when your votes are back" });
      await offer.waitFor();
      await animationsSettled(page);
      expect(await offer.getByRole("button", { name: "Notify me" }).isEnabled()).toBe(true);
      await saveScreenshot(page, `home-out-of-votes-${kind}`);
      expect(errors).toEqual([]);
    }
  });

  it("paused: home says so and Resume undoes it", async () => {
    const student = await createStudent("Uma", "female");
    for (const kind of kinds) {
      await api("/users/pause", {
        method: "POST",
        body: JSON.stringify({ paused: true }),
        token: student.tokens.token,
      });
      const { page, errors } = await open(kind, student);
      const notice = page.getByRole("region", { name: "Your profile is paused" });
      await notice.waitFor();
      await roundShown(page);
      await saveScreenshot(page, `home-paused-${kind}`);
      await notice.getByRole("button", { name: "Resume" }).click();
      await expect.poll(() => notice.count()).toBe(0);
      expect(errors).toEqual([]);
    }
  });

  it("Skip with none left keeps its '0 left' look and a tap opens 'Out of Skips'", async () => {
    const student = await createStudent("Vera", "female");
    for (const kind of kinds) {
      const { page, errors } = await open(kind, student);
      await roundShown(page);
      const skip = page.getByRole("button", { name: /^Skip/ });
      while (!((await skip.textContent()) ?? "").includes("0 left")) {
        await skip.click();
        await roundShown(page);
      }
      await skip.click();
      const dialog = page.getByRole("dialog", { name: SCREEN_TEXT.outOfSkipsTitle });
      await dialog.getByText(SCREEN_TEXT.outOfSkipsBody).waitFor();
      await animationsSettled(page);
      await saveScreenshot(page, `out-of-skips-${kind}`);
      await dialog.getByRole("button", { name: "Back to voting" }).click();
      // A vote brings the skips back for the laptop's turn.
      await page
        .getByRole("button", { name: /^Vote for / })
        .first()
        .click();
      await roundShown(page);
      expect(errors).toEqual([]);
    }
  });

  it("the Guys/Girls switch keeps focus while the new choice loads", async () => {
    const student = await createStudent("Wren", "female");
    const { page, errors } = await open("mobile", student);
    await roundShown(page);
    // The radio itself is drawn under its label, which takes the tap.
    await page.getByRole("group", { name: "Show me" }).getByText("Guys", { exact: true }).click();
    await page.getByRole("article").first().waitFor();
    await roundShown(page);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe("male");
    expect(errors).toEqual([]);
  });

  it("the revealed Instagram handle stays on one line, even 30 characters on a 320 px phone", async () => {
    const recipient = await createStudent("Xena", "female");
    const handle = "@abcdefghij.klmnopqrs_tuvwxyz12"; // 30 characters after the @
    const voter = await createStudent("Yuri", "male", { instagramHandle: handle });
    await voteFor(voter, recipient);
    const { clientSecret } = await api<{ clientSecret: string }>("/payments/create-payment-intent", {
      method: "POST",
      body: JSON.stringify({ productId: "unlock-3" }),
      token: recipient.tokens.token,
    });
    await api("/payments/local/confirm", {
      method: "POST",
      body: JSON.stringify({ clientSecret, cardNumber: "4242424242424242" }),
      token: recipient.tokens.token,
    });
    for (const [name, options] of [
      ["mobile", {}],
      ["320", { viewport: { width: 320, height: 640 } }],
    ] as const) {
      const opened = await chromium.open("mobile", `${baseURL}/terms`, options);
      await openSignedIn(opened.page, baseURL, recipient);
      const { page } = opened;
      await roundShown(page);
      // Home itself fits: a phone would zoom out a page wider than the screen (innerWidth grows).
      expect(await page.evaluate(() => window.innerWidth)).toBe(
        (options as { viewport?: { width: number } }).viewport?.width ?? 390,
      );
      await entry(page).click();
      const inbox = page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou });
      await inbox.getByRole("button", { name: "View" }).first().click();
      const detail = page.getByRole("dialog").last();
      const unlock = detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails });
      if (await unlock.count()) {
        await unlock.click();
        await page.getByRole("button", { name: "Use 1 unlock" }).click();
      }
      const link = page.getByRole("link", { name: handle });
      await link.waitFor();
      await animationsSettled(page);
      expect(await link.evaluate((el) => el.getClientRects().length)).toBe(1);
      const box = (await link.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(
        (options as { viewport?: { width: number } }).viewport?.width ?? 390,
      );
      // Nor does it widen the dialog past the screen.
      const dialogBox = (await detail.boundingBox())!;
      expect(dialogBox.x + dialogBox.width).toBeLessThanOrEqual(
        (options as { viewport?: { width: number } }).viewport?.width ?? 390,
      );
      await saveScreenshot(page, `vote-detail-handle-${name}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
  });

  it("Boost preselects nothing", async () => {
    const student = await createStudent("Zara", "female");
    for (const kind of kinds) {
      const { page, errors } = await open(kind, student);
      await entry(page).click();
      await page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou }).getByRole("button", { name: "Boost" }).click();
      const boost = page.getByRole("dialog", { name: "Boost your profile" });
      await boost.getByRole("radio").first().waitFor();
      expect(await boost.getByRole("radio", { checked: true }).count()).toBe(0);
      expect(await boost.getByRole("button", { name: "Boost", exact: true }).isDisabled()).toBe(true);
      await animationsSettled(page);
      await saveScreenshot(page, `boost-${kind}`);
      expect(errors).toEqual([]);
    }
  });

  it("Settings on a laptop is as wide as home", async () => {
    const student = await createStudent("Ada", "female");
    const { page, errors } = await open("desktop", student);
    await roundShown(page);
    const column = () => page.locator("main, [class*=column]").first().boundingBox();
    const home = (await column())!;
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await animationsSettled(page);
    const settings = (await column())!;
    expect(settings.width).toBe(home.width);
    await saveScreenshot(page, "settings-desktop");
    const phone = await open("mobile", student, "/settings");
    await phone.page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
    await saveScreenshot(phone.page, "settings-mobile");
    expect(errors).toEqual([]);
  });

  it("follows the OS's dark mode: home, the inbox and Settings, with text that keeps its contrast", async () => {
    const student = await createStudent("Dara", "female");
    await voteFor(await createStudent("Eli", "male"), student);
    for (const kind of kinds) {
      const opened = await chromium.open(kind, `${baseURL}/terms`, {
        ...(kind === "desktop" ? LAPTOP : {}),
        colorScheme: "dark",
        bypassCSP: true,
      });
      const { page, errors } = opened;
      // Signed out first: the landing page and the sign-up wizard's first step.
      for (const [path, name] of [
        ["/", "landing"],
        ["/signup", "signup"],
      ] as const) {
        await page.goto(`${baseURL}${path}`);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        await animationsSettled(page);
        expect(await contrastFailures(page)).toEqual([]);
        if (name === "signup") {
          // The bar under the thumb holding Back and Next is dark too.
          const bar = await page
            .getByRole("button", { name: "Next" })
            .locator("..")
            .evaluate((element) => getComputedStyle(element).backgroundColor);
          expect(isDark(bar), bar).toBe(true);
        }
        await saveScreenshot(page, `dark-${name}-${kind}`);
      }
      await openSignedIn(page, baseURL, student);
      await roundShown(page);
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe("rgb(18, 14, 26)");
      // On a laptop the screen sits in a frosted frame: a dark one (a light one left light text unreadable).
      const frame = await page.evaluate(
        () => getComputedStyle(document.querySelector("main")!.parentElement!).backgroundColor,
      );
      expect(isDark(frame), frame).toBe(true);
      expect(await contrastFailures(page)).toEqual([]);
      await saveScreenshot(page, `dark-home-${kind}`);

      await entry(page).click();
      const inbox = page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou });
      await inbox.getByRole("list", { name: "Votes you received" }).waitFor();
      await animationsSettled(page);
      expect(await contrastFailures(page)).toEqual([]);
      await saveScreenshot(page, `dark-inbox-${kind}`);
      await inbox.getByRole("button", { name: "Close" }).click();

      await page.getByRole("link", { name: "Settings" }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
      await animationsSettled(page);
      expect(await contrastFailures(page)).toEqual([]);
      await saveScreenshot(page, `dark-settings-${kind}`);
      expect(errors).toEqual([]);
    }
  });
});

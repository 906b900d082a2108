import { LOCKED_NAME_PLACEHOLDER, SCREEN_TEXT, TOASTS } from "@quad/contracts";
import type { Locator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { createApi, JUNIORS, openSignedIn, SENIORS, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser, type OpenedPage, type Chromium } from "./browser";

const baseURL = inject("baseURL");

/**
 * Received votes, unlocks, payments and boosts in real Chromium against the
 * real server (local payment provider, test cards). Every vote is cast
 * through the API by a real student; nothing is faked.
 */

const { createStudent, voteFor, me } = createApi(baseURL, "203.0.113.55");

/** Opens /home signed in as `student`. */
async function openHomeAs(
  chromium: Chromium,
  student: Student,
  kind: "mobile" | "desktop" = "mobile",
): Promise<OpenedPage> {
  const opened = await chromium.open(kind, `${baseURL}/terms`);
  await openSignedIn(opened.page, baseURL, student);
  await opened.page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).waitFor();
  return opened;
}

function dialog(page: Page, name: string): Locator {
  return page.getByRole("dialog", { name, exact: true });
}

/** Lets entrance animations finish so screenshots show the settled UI. */
async function settle(page: Page): Promise<void> {
  await animationsSettled(page);
}

async function payWithCard(page: Page, cardNumber: string, payLabel: string): Promise<Locator> {
  const checkout = dialog(page, "Checkout");
  await checkout.getByLabel("Card number").fill(cardNumber);
  await checkout.getByLabel("Expiration date (MM / YY)").fill("12 / 34");
  await checkout.getByLabel("Security code (CVC)").fill("123");
  await checkout.getByRole("button", { name: payLabel }).click();
  return checkout;
}

describe("received votes, unlocks, payments and boosts", () => {
  const chromium = useBrowser();

  it("a student who received a vote buys unlock-3 with 4242…, unlocks the voter and sees their name and handle", async () => {
    const recipient = await createStudent("+12025550811", {
      firstName: "Robin",
      gender: "female",
      preference: "male",
      instagramHandle: "@robin.e2e",
      graduationYear: JUNIORS,
      colors: [
        [124, 58, 237],
        [219, 39, 119],
      ],
    });
    const voter = await createStudent("+12025550812", {
      firstName: "Quinlan",
      gender: "male",
      preference: "female",
      instagramHandle: "@quinlan.builds",
      graduationYear: SENIORS,
      emojis: ["🎸", "🌮"],
      colors: [
        [14, 116, 144],
        [249, 115, 22],
      ],
    });
    await voteFor(voter, recipient);

    const home = await openHomeAs(chromium, recipient);
    const { page, errors } = home;

    // The list: one locked card, without the voter's name or handle.
    await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    const list = dialog(page, SCREEN_TEXT.votedOnYou);
    const card = list.getByRole("listitem").first();
    await card.getByText(LOCKED_NAME_PLACEHOLDER).waitFor();
    // Its picture is drawn in the page; nothing is loaded for it, so nothing of the voter's photo can be.
    await card.locator("[data-locked-portrait]").waitFor();
    expect(await card.locator("img").count()).toBe(0);
    // (The voter may be a candidate in the round behind the modal: look only inside it.)
    expect(await list.getByText("Quinlan").count()).toBe(0);
    expect(await list.getByText("@quinlan.builds").count()).toBe(0);
    await settle(page);
    await saveScreenshot(page, "inbox-votes-mobile");

    // The detail: prompt, blurred handle, "Unlock Details"; with no credit, the flash sale.
    await card.getByRole("button", { name: "View" }).click();
    const detail = dialog(page, LOCKED_NAME_PLACEHOLDER);
    await detail.getByText(SCREEN_TEXT.votedOnYouFor).waitFor();
    expect(await detail.locator("img").count()).toBe(0);
    await settle(page);
    await saveScreenshot(page, "inbox-detail-locked-mobile");
    await detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }).click();
    const sale = dialog(page, "Flash sale");
    await sale.getByText("67% off").waitFor();
    await settle(page);
    await saveScreenshot(page, "inbox-flash-sale-mobile");
    await sale.getByRole("button", { name: "Not now" }).click();
    await detail.getByRole("button", { name: "Close", exact: true }).click();
    await list.getByRole("button", { name: "Close", exact: true }).click();

    // Buy Unlocks → unlock-3 → the local card form → 4242 4242 4242 4242.
    await page.getByRole("button", { name: "Buy Unlocks" }).click();
    const packages = dialog(page, "Buy Unlocks");
    await packages.getByText("3 unlocks").click();
    await packages.getByRole("button", { name: "Continue · $7.99" }).click();
    const checkout = dialog(page, "Checkout");
    await checkout.getByLabel("Card number").fill("4242 4242 4242 4242");
    await checkout.getByLabel("Expiration date (MM / YY)").fill("12 / 34");
    await checkout.getByLabel("Security code (CVC)").fill("123");
    await settle(page);
    await saveScreenshot(page, "payment-form-mobile");
    await checkout.getByRole("button", { name: "Pay $7.99" }).click();
    await page.getByText(TOASTS.paymentSuccessful).waitFor();
    await checkout.waitFor({ state: "detached" });
    expect((await me(recipient)).remainingUnlocks).toBe(3);

    // Now the unlock spends a credit and reveals the voter.
    await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    await list.getByRole("listitem").first().getByRole("button", { name: "View" }).click();
    await detail.getByRole("button", { name: SCREEN_TEXT.unlockDetails }).click();
    const confirm = dialog(page, SCREEN_TEXT.useUnlockCredit);
    await confirm.getByText("You have 3 unlocks left.", { exact: false }).waitFor();
    await settle(page);
    await saveScreenshot(page, "inbox-confirm-mobile");
    await confirm.getByRole("button", { name: "Use 1 unlock" }).click();
    await page.getByText(TOASTS.profileUnlocked).waitFor();
    const revealed = dialog(page, "Quinlan");
    await revealed.getByRole("link", { name: "@quinlan.builds" }).waitFor();
    await revealed.getByText(String(SENIORS)).waitFor();
    await expect
      .poll(() => revealed.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await settle(page);
    await saveScreenshot(page, "inbox-unlocked-mobile");
    await revealed.getByRole("button", { name: "Done" }).click();
    await list.getByRole("listitem").first().getByText("Quinlan").waitFor();
    await settle(page);
    await saveScreenshot(page, "inbox-votes-unlocked-mobile");
    expect((await me(recipient)).remainingUnlocks).toBe(2);
    expect(errors).toEqual([]);

    // The same list on a laptop.
    const desktop = await openHomeAs(chromium, { ...recipient, me: await me(recipient) }, "desktop");
    await desktop.page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    await dialog(desktop.page, SCREEN_TEXT.votedOnYou).getByRole("listitem").first().getByText("Quinlan").waitFor();
    await settle(desktop.page);
    await saveScreenshot(desktop.page, "inbox-votes-desktop");
    await dialog(desktop.page, SCREEN_TEXT.votedOnYou)
      .getByRole("listitem")
      .first()
      .getByRole("button", { name: "View" })
      .click();
    await dialog(desktop.page, "Quinlan").getByRole("link", { name: "@quinlan.builds" }).waitFor();
    await settle(desktop.page);
    await saveScreenshot(desktop.page, "inbox-unlocked-desktop");
    expect(desktop.errors).toEqual([]);
  });

  it("a declined card (4000 0000 0000 0002) shows the decline message and buys nothing", async () => {
    const student = await createStudent("+12025550821", {
      firstName: "Dana",
      gender: "female",
      preference: "male",
      instagramHandle: "@dana.e2e",
      graduationYear: JUNIORS + 1,
      colors: [
        [22, 163, 74],
        [37, 99, 235],
      ],
    });
    const home = await openHomeAs(chromium, student);
    const { page, errors } = home;

    await page.getByRole("button", { name: "Buy Unlocks" }).click();
    const packages = dialog(page, "Buy Unlocks");
    await packages.locator("[data-badge]").waitFor();
    // The sale's ribbon stays inside its own package down to 320 px; nothing is preselected over it.
    expect(await packages.getByRole("button", { name: "Choose a package" }).isDisabled()).toBe(true);
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      const boxes = await packages.locator("label[data-product]").evaluateAll((labels) =>
        labels.map((label) => {
          const own = label.getBoundingClientRect();
          const badge = label.querySelector("[data-badge]")?.getBoundingClientRect();
          return {
            own: { top: own.top, bottom: own.bottom, left: own.left, right: own.right },
            badge: badge && { top: badge.top, bottom: badge.bottom, left: badge.left, right: badge.right },
          };
        }),
      );
      boxes.forEach(({ own, badge }, index) => {
        if (badge)
          expect(
            badge.top >= own.top && badge.bottom <= own.bottom && badge.left >= own.left && badge.right <= own.right,
          ).toBe(true);
        if (index > 0) expect(own.top).toBeGreaterThanOrEqual(boxes[index - 1]!.own.bottom);
      });
      await settle(page);
      await saveScreenshot(page, `buy-unlocks-${width}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await packages.getByText("3 unlocks").click();
    await settle(page);
    await saveScreenshot(page, "buy-unlocks-mobile");
    await packages.getByRole("button", { name: "Continue · $7.99" }).click();
    const checkout = await payWithCard(page, "4000 0000 0000 0002", "Pay $7.99");
    await checkout.getByRole("form", { name: "Card payment" }).getByText("Your card was declined.").waitFor();
    await settle(page);
    await saveScreenshot(page, "payment-declined-mobile");
    expect((await me(student)).remainingUnlocks).toBe(0);
    // A failed payment is not a page error; nothing else may be.
    expect(errors.filter((e) => !/402|Payment Required/i.test(e))).toEqual([]);
  });

  it("a boost purchase shows the remaining time", async () => {
    const student = await createStudent("+12025550831", {
      firstName: "Blair",
      gender: "male",
      preference: "female",
      instagramHandle: "@blair.e2e",
      graduationYear: SENIORS,
      colors: [
        [190, 24, 93],
        [250, 204, 21],
      ],
    });
    const home = await openHomeAs(chromium, student);
    const { page, errors } = home;
    expect(await page.getByText(/Boosted ·/).count()).toBe(0);

    await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou }).click();
    const list = dialog(page, SCREEN_TEXT.votedOnYou);
    await list.getByText(SCREEN_TEXT.noVotesTitle).waitFor();
    await settle(page);
    await saveScreenshot(page, "inbox-empty-mobile");
    await list.getByRole("button", { name: "Boost" }).click();
    const boost = dialog(page, "Boost your profile");
    await boost.getByText(SCREEN_TEXT.boostTagline).waitFor();
    await boost.getByText("24 hours", { exact: true }).click();
    await settle(page);
    await saveScreenshot(page, "boost-mobile");
    await boost.getByRole("button", { name: "Boost · $4.99" }).click();
    await payWithCard(page, "4242 4242 4242 4242", "Pay $4.99");
    await page.getByText(TOASTS.paymentSuccessful).waitFor();
    await boost.waitFor({ state: "detached" });
    await list.getByRole("button", { name: "Close", exact: true }).click();

    const status = page.getByText(/Boosted ·/);
    await status.waitFor();
    expect(await status.textContent()).toMatch(/^Boosted · (1d 0h|23h 5\dm) left$/);
    const boostEnd = (await me(student)).boostEndTime;
    expect(boostEnd && Date.parse(boostEnd) - Date.now()).toBeGreaterThan(23 * 3600_000);
    await settle(page);
    await saveScreenshot(page, "boost-status-mobile");
    expect(errors).toEqual([]);
  });
});

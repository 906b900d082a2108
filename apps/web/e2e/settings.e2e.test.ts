import { AUTH_CODE, PROFILE_LIST, TOASTS, VOTES_PER_BATCH } from "@quad/contracts";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { ACCOUNT_TEXT } from "../src/features/account/texts";
import { SETTINGS_TEXT } from "../src/features/settings/texts";
import { TAG_LIMITS, USERS_TEXT } from "../src/features/users/texts";
import { createApi, openSignedIn, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser, type OpenedPage } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * Settings in real Chromium against the real server: pausing takes a student
 * out of everyone's rounds, and a deleted account is gone at once.
 */

const { api, createStudent, openRound, vote, latestCode } = createApi(baseURL, "203.0.113.101");

/**
 * Every candidate a voter is shown while spending a whole batch of votes,
 * skipping while skips are left: up to 96 students, more than the first
 * school holds of one gender (demo students plus every test's).
 */
async function candidatesSeenBy(voter: Student): Promise<Set<string>> {
  const seen = new Set<string>();
  let round = await openRound(voter);
  for (let votes = 0; votes < VOTES_PER_BATCH;) {
    for (const candidate of round.users) seen.add(candidate.id);
    if (!round.prompt.skipDisabled) {
      round = await openRound(voter, true);
      continue;
    }
    await vote(voter, round);
    if (++votes < VOTES_PER_BATCH) round = await openRound(voter);
  }
  return seen;
}

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

/** Lets entrance animations finish so screenshots show the settled UI. */
const settle = (page: Page) => animationsSettled(page);

describe("settings", () => {
  const chromium = useBrowser();

  async function openSettingsAs(student: Student, kind: "mobile" | "desktop" = "mobile"): Promise<OpenedPage> {
    const page = await chromium.open(kind, `${baseURL}/terms`);
    await openSignedIn(page.page, baseURL, student, "/settings");
    await page.page.getByRole("heading", { level: 1, name: SETTINGS_TEXT.title }).waitFor();
    return page;
  }

  it(
    "a paused student never appears in another student's rounds, and comes back when resumed",
    { timeout: 120_000 },
    async () => {
      const harper = await createStudent("+12027400101", {
        firstName: "Harper",
        gender: "female",
        colors: hueColors(300),
      });
      const { page, errors } = await openSettingsAs(harper);
      await page.getByRole("img", { name: "Your profile photo" }).waitFor();
      await settle(page);
      await saveScreenshot(page, "settings-mobile");
      await saveScreenshot(page, "settings-mobile-full", { fullPage: true });

      const pause = page.getByRole("switch", { name: ACCOUNT_TEXT.pauseTitle });
      await pause.click();
      await toast(page, ACCOUNT_TEXT.pausedToast);
      expect(await pause.isChecked()).toBe(true);

      // A whole batch of rounds shows every eligible student at least once; never Harper.
      const theo = await createStudent("+12027400102", {
        firstName: "Theo",
        gender: "male",
        preference: "female",
        colors: hueColors(20),
      });
      expect((await candidatesSeenBy(theo)).has(harper.me.id)).toBe(false);

      await pause.click();
      await toast(page, ACCOUNT_TEXT.resumedToast);
      const owen = await createStudent("+12027400103", {
        firstName: "Owen",
        gender: "male",
        preference: "female",
        colors: hueColors(60),
      });
      expect((await candidatesSeenBy(owen)).has(harper.me.id)).toBe(true);
      expect(errors).toEqual([]);
    },
  );

  it("edits the profile and turns vote texts off on a laptop", { timeout: 90_000 }, async () => {
    const riley = await createStudent("+12027400111", { firstName: "Riley", gender: "male", colors: hueColors(200) });
    const { page, errors } = await openSettingsAs(riley, "desktop");
    // Past the server's limit the field keeps what was typed, counts it and says why it cannot be added.
    const interests = page.getByRole("textbox", { name: "Interests" });
    const long = "Bouldering and sport climbing on weekends, mostly";
    await interests.pressSequentially(long);
    expect(await interests.inputValue()).toBe(long);
    await page.getByText(`${long.length}/${PROFILE_LIST.maxLength}`).waitFor();
    await page.getByRole("status").getByText(TAG_LIMITS.tooLong).waitFor();
    expect(await page.getByRole("button", { name: "Add to Interests" }).isDisabled()).toBe(true);
    await interests.fill("Climbing");
    await interests.press("Enter");
    await page.getByRole("button", { name: "🎧" }).click();
    await page.getByRole("button", { name: "Save profile" }).click();
    await toast(page, USERS_TEXT.profileSaved);
    const sms = page.getByRole("switch", { name: "Text me when I get votes" });
    expect(await sms.isChecked()).toBe(true);
    await sms.click();
    await page.getByText(USERS_TEXT.smsOff).waitFor();

    const me = await api<{ interests: string[]; emojis: string[] }>("/users/me", { token: riley.tokens.token });
    expect(me).toMatchObject({ interests: ["Climbing"], emojis: ["🎧"] });
    expect(await api("/users/sms-settings", { token: riley.tokens.token })).toMatchObject({ enabled: false });
    await settle(page);
    await saveScreenshot(page, "settings-desktop");
    expect(errors).toEqual([]);
  });

  it('deletes the account at once; logging in again says "No such user exists!"', { timeout: 120_000 }, async () => {
    const phone = { digits: "2027400121", e164: "+12027400121" };
    const signedUpAt = Date.now();
    const quinn = await createStudent(phone.e164, { firstName: "Quinn", gender: "female", colors: hueColors(140) });
    const { page, errors } = await openSettingsAs(quinn);

    await page.getByRole("button", { name: "Delete", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.getByLabel(ACCOUNT_TEXT.deleteConfirmLabel).fill("DELETE");
    await settle(page);
    await saveScreenshot(page, "settings-delete-mobile");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await page.waitForURL(`${baseURL}/login`);
    await toast(page, ACCOUNT_TEXT.deleted);

    // The old session is gone on the server too.
    await expect(api("/users/me", { token: quinn.tokens.token })).rejects.toThrow(/401|404/);

    // The server sends one code per number per interval: a deliberate wait, as that interval is a time
    // and nothing on the page says when it is over.
    const wait = signedUpAt + AUTH_CODE.resendIntervalMs + 1500 - Date.now();
    if (wait > 0) await page.waitForTimeout(wait);
    await page.getByLabel("Phone number").pressSequentially(phone.digits);
    await page.getByRole("button", { name: "Send Code" }).click();
    await toast(page, TOASTS.codeSent);
    await page.getByLabel("Verification code").fill(await latestCode(phone.e164));
    await toast(page, TOASTS.noSuchUser);
    expect(new URL(page.url()).pathname).toBe("/login");
    await saveScreenshot(page, "settings-deleted-login-mobile");
    // The failed profile lookup is expected, and the code check's 400: a number with no account signs
    // in only with the sign-up consents, which the login screen never sends. Nothing else may fail.
    expect(errors.filter((e) => !/404|Not Found/i.test(e))).toEqual([
      "console.error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
    ]);
  });
});

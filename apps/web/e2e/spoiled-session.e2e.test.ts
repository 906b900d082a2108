import { SESSION_STORAGE_KEY, TOAST_DETAILS, TOASTS } from "@quad/contracts";
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { animationsSettled, useBrowser } from "./browser";

const baseURL = inject("baseURL");

/**
 * A session spoiled in this browser's storage (the entry "user" unreadable,
 * or a token the server refuses) ends on /login with "No token found.
 * Please log in." and one sentence saying what happened.
 */

const SPOILED = {
  unreadable: "{not json",
  refused: JSON.stringify({
    state: {
      token: "not-a-real-token",
      refreshToken: "nor-this",
      expiresAt: "2099-01-01T00:00:00.000Z",
      verified: true,
    },
    version: 1,
  }),
};

async function arriveWith(page: Page, entry: string | null): Promise<void> {
  await page.evaluate(
    ([key, value]) => (value === null ? localStorage.removeItem(key) : localStorage.setItem(key, value)),
    [SESSION_STORAGE_KEY, entry] as const,
  );
  await page.goto(`${baseURL}/home`, { waitUntil: "networkidle" });
  await page.waitForURL(`${baseURL}/login`);
  await page.getByText(TOASTS.noToken, { exact: true }).waitFor();
}

describe("a spoiled session", () => {
  const chromium = useBrowser();

  for (const [kind, viewport] of [
    ["mobile", { width: 390, height: 844 }],
    ["desktop", { width: 1366, height: 768 }],
  ] as const) {
    for (const [name, entry] of Object.entries(SPOILED)) {
      it(`${name}: the toast says what happened (${kind})`, async () => {
        const { page, errors } = await chromium.open(kind, `${baseURL}/terms`, { viewport });
        await arriveWith(page, entry);
        await page.getByText(TOAST_DETAILS.sessionSpoiled, { exact: true }).waitFor();
        await animationsSettled(page);
        // Not saveScreenshot: stopping animations would run out the toast's timer and close it.
        await page.screenshot({
          path: resolve(import.meta.dirname, "screenshots", `spoiled-session-${name}-${kind}.png`),
        });
        // The refused token's 401 is the server's answer, not a page error.
        expect(errors.filter((error) => !/401|Unauthorized/i.test(error))).toEqual([]);
      });
    }
  }

  it("no session at all: the toast alone, without the sentence", async () => {
    const { page } = await chromium.open("mobile", `${baseURL}/terms`);
    await arriveWith(page, null);
    expect(await page.getByText(TOAST_DETAILS.sessionSpoiled).count()).toBe(0);
  });
});

import { SCREEN_TEXT, VOTES_PER_BATCH } from "@quad/contracts";
import { describe, expect, inject, it } from "vitest";
import { meanwhileLabel } from "../src/features/inbox/texts";
import { createApi, openSignedIn } from "./api";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * Out of votes, "Meanwhile: N new votes" opens the inbox; a vote that lands
 * while the inbox is open is seen there, and is not new once it is closed.
 */

const { createStudent, openRound, vote, voteFor } = createApi(baseURL, "203.0.113.205");

describe("what arrived meanwhile", () => {
  const chromium = useBrowser();

  for (const [kind, viewport, n] of [
    ["mobile", { width: 390, height: 844 }, 1],
    ["desktop", { width: 1366, height: 768 }, 2],
  ] as const) {
    it(
      `opens the inbox, and a vote seen there is not new after closing it (${kind})`,
      { timeout: 120_000 },
      async () => {
        const phone = (i: number) => `+120274806${n}${i}`;
        const student = await createStudent(phone(0), { firstName: "Ines", gender: "female", colors: hueColors(280) });
        for (let i = 0; i < VOTES_PER_BATCH; i++) await vote(student, await openRound(student));
        const voters = await Promise.all(
          [1, 2].map((i) =>
            createStudent(phone(i), {
              firstName: `Voter${i}`,
              gender: "male",
              preference: "female",
              colors: hueColors(i * 90),
            }),
          ),
        );
        await voteFor(voters[0]!, student);

        const { page, errors } = await chromium.open(kind, `${baseURL}/terms`, { viewport });
        await openSignedIn(page, baseURL, student);
        await page.getByText(SCREEN_TEXT.outOfVotesBody).waitFor();
        const meanwhile = page.getByRole("button", { name: meanwhileLabel(1) });
        await meanwhile.waitFor();
        await animationsSettled(page);
        await saveScreenshot(page, `meanwhile-button-${kind}`);

        await meanwhile.click();
        const inbox = page.getByRole("dialog", { name: SCREEN_TEXT.votedOnYou });
        await expect.poll(() => inbox.getByRole("listitem").count()).toBe(1);
        // A second vote while the list is open: it shows up in it.
        await voteFor(voters[1]!, student);
        await expect.poll(() => inbox.getByRole("listitem").count()).toBe(2);
        await inbox.getByRole("button", { name: "Close", exact: true }).click();
        await inbox.waitFor({ state: "detached" });

        // Seen, so nothing is new: no badge on the entry, and the cooldown says so.
        await page.getByText(meanwhileLabel(0)).waitFor();
        expect(await page.getByRole("button", { name: SCREEN_TEXT.seeWhoVotedForYou, exact: true }).count()).toBe(1);
        // Still nothing new after a reload, from the server's count.
        await page.reload({ waitUntil: "networkidle" });
        await page.getByText(meanwhileLabel(0)).waitFor();
        expect(errors).toEqual([]);
      },
    );
  }
});

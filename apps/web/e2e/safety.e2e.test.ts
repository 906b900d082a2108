import type { Gender, RoundResponse } from "@quad/contracts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createApi, openSignedIn, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser, roundShown, type OpenedPage } from "./browser";
import { hueColors } from "./portrait";
import { startSecondServer, type SecondServer } from "./second-server";

const baseURL = inject("baseURL");

/** The round on screen, as a string: its prompt and both candidates' names. */
const roundOnScreen = (page: Page) =>
  page.evaluate(() =>
    [document.querySelector("section h2"), ...document.querySelectorAll("article h3")]
      .map((el) => el?.textContent)
      .join("|"),
  );

/**
 * Trust and safety in real Chromium against the real server: block a
 * candidate from the card (then neither student ever sees the other),
 * report one, and /admin (404 for everyone but an admin, the review queue
 * for an admin granted with `pnpm admin:grant`).
 */

const client = createApi(baseURL, "203.0.113.91");

function createStudent(
  api: ReturnType<typeof createApi>,
  phone: string,
  firstName: string,
  gender: Gender,
  hue: number,
): Promise<Student> {
  return api.createStudent(phone, {
    firstName,
    gender,
    preference: gender === "male" ? "female" : "male",
    colors: hueColors(hue),
  });
}

const openRound = (student: Student, skip = false) =>
  client.api<RoundResponse>(`/prompts/random?skip=${skip}`, { token: student.tokens.token });

/**
 * Plays `student`'s rounds through the API, skipping while skips last and
 * voting otherwise, until `stop` says so or the rounds run out (no
 * candidates, or out of votes). Answers every candidate id seen.
 */
async function playRounds(
  student: Student,
  stop: (ids: string[]) => boolean = () => false,
  maxRounds = 60,
): Promise<{ seen: string[]; ended: string | null }> {
  const seen: string[] = [];
  let round = await openRound(student);
  for (let played = 0; played < maxRounds; played++) {
    if ("error" in round) return { seen, ended: round.error };
    const ids = round.users.map((user) => user.id);
    seen.push(...ids);
    if (stop(ids)) return { seen, ended: null };
    if (!round.prompt.skipDisabled) {
      round = await openRound(student, true);
    } else {
      await client.vote(student, round);
      round = await openRound(student);
    }
  }
  return { seen, ended: null };
}

/** Waits for dialogs' entrance animation before a screenshot. */
const settle = (page: Page) => animationsSettled(page);

describe("trust and safety", () => {
  const chromium = useBrowser();
  const opened = chromium.opened;
  let blocker: Student;
  let blocked: Student;

  beforeAll(async () => {
    blocker = await createStudent(client, "+12027390101", "Theo", "male", 210);
    blocked = await createStudent(client, "+12027390102", "Quinby", "female", 320);
  });

  async function open(kind: "mobile" | "desktop", path = "/terms"): Promise<OpenedPage> {
    return chromium.open(kind, `${baseURL}${path}`);
  }

  it("blocks a candidate from the card's menu, and a fresh round replaces the one that showed them", async () => {
    // Play until Quinby is one of the two candidates of Theo's open round.
    const found = await playRounds(blocker, (ids) => ids.includes(blocked.me.id));
    expect(found.seen).toContain(blocked.me.id);

    const mobile = await open("mobile");
    const { page } = mobile;
    await openSignedIn(page, baseURL, blocker);
    await roundShown(page);
    const card = page.getByRole("article", { name: "Quinby" });
    await card.getByRole("button", { name: "More options for Quinby" }).click();
    const menu = page.getByRole("dialog", { name: "Quinby" });
    await menu.waitFor();
    await settle(page);
    await saveScreenshot(page, "safety-card-menu-mobile");

    await menu.getByRole("button", { name: /^Block Quinby/ }).click();
    const confirm = page.getByRole("dialog", { name: "Block Quinby?" });
    await confirm.waitFor();
    await expect(confirm.getByText("Neither of you will see the other in rounds.").isVisible()).resolves.toBe(true);
    await expect(confirm.getByText(/You can undo this in Settings/).isVisible()).resolves.toBe(true);
    await settle(page);
    await saveScreenshot(page, "safety-block-dialog-mobile");

    await confirm.getByRole("button", { name: "Block Quinby", exact: true }).click();
    await page.getByText("Quinby is blocked").waitFor();
    // On a phone the toast sits under the top bar: Logout and Settings stay in reach (measured once it has slid in).
    await page
      .locator(".Toastify__toast")
      .first()
      .evaluate((toast) => Promise.all(toast.getAnimations().map((a) => a.finished)));
    const toastBox = (await page.locator(".Toastify__toast").first().boundingBox())!;
    const logoutBox = (await page.getByRole("button", { name: "Logout" }).boundingBox())!;
    expect(toastBox.y).toBeGreaterThanOrEqual(logoutBox.y + logoutBox.height);
    // A fresh round replaces the one that showed her. (Not "the next rounds.open answer": a fetch the live
    // stream's event started and the block's own refresh superseded may still answer after the click.)
    await page.getByRole("article", { name: "Quinby" }).waitFor({ state: "detached" });
    await roundShown(page);
    expect(await page.getByRole("article", { name: "Quinby" }).count()).toBe(0);
    await saveScreenshot(page, "safety-after-block-mobile");
    expect(mobile.errors).toEqual([]);
  });

  it("reports a candidate from the card: a reason, a note, and a thank-you toast", async () => {
    const mobile = opened[0]!;
    const { page } = mobile;
    const card = page.getByRole("article").first();
    const name = (await card.getByRole("heading").textContent())!.trim();
    await card.getByRole("button", { name: `More options for ${name}` }).click();
    await page
      .getByRole("dialog", { name })
      .getByRole("button", { name: new RegExp(`^Report ${name}`) })
      .click();

    const report = page.getByRole("dialog", { name: `Report ${name}` });
    await report.waitFor();
    await report.getByText("Fake profile").click();
    await report.getByLabel("Add a note").fill("The photo is a stock image.");
    await settle(page);
    await saveScreenshot(page, "safety-report-dialog-mobile");

    // Like a block, a report moves on: the round showing the reported student is replaced. (The next
    // round is drawn as any other and may show them again: only a block keeps them out.)
    const reported = await roundOnScreen(page);
    await report.getByRole("button", { name: "Send report" }).click();
    await page.getByText("Thanks. Our team will review your report.").waitFor();
    await report.waitFor({ state: "detached" });
    await expect.poll(() => roundOnScreen(page), { timeout: 10_000 }).not.toBe(reported);
    await roundShown(page);
    await saveScreenshot(page, "safety-report-sent-mobile");
    expect(mobile.errors).toEqual([]);
  });

  it("on a laptop: the menu, the block confirmation and the report form's validation", async () => {
    const desktop = await open("desktop");
    const { page } = desktop;
    await openSignedIn(page, baseURL, blocker);
    await roundShown(page);
    const card = page.getByRole("article").nth(1);
    const name = (await card.getByRole("heading").textContent())!.trim();
    await card.getByRole("button", { name: `More options for ${name}` }).click();
    const menu = page.getByRole("dialog", { name });
    await menu.waitFor();
    await settle(page);
    await saveScreenshot(page, "safety-card-menu-desktop");

    await menu.getByRole("button", { name: new RegExp(`^Block ${name}`) }).click();
    const confirm = page.getByRole("dialog", { name: `Block ${name}?` });
    await confirm.waitFor();
    await settle(page);
    await saveScreenshot(page, "safety-block-dialog-desktop");
    await confirm.getByRole("button", { name: "Cancel" }).click();

    await card.getByRole("button", { name: `More options for ${name}` }).click();
    await page
      .getByRole("dialog", { name })
      .getByRole("button", { name: new RegExp(`^Report ${name}`) })
      .click();
    const report = page.getByRole("dialog", { name: `Report ${name}` });
    await report.getByText("Something else").click();
    await report.getByRole("button", { name: "Send report" }).click();
    await report.getByText("Tell us what happened").waitFor();
    await settle(page);
    await saveScreenshot(page, "safety-report-dialog-desktop");
    await report.getByRole("button", { name: "Cancel" }).click();
    await report.waitFor({ state: "detached" });
    expect(desktop.errors).toEqual([]);
  });

  it("after the block, neither student's rounds ever show the other", async () => {
    const theo = await playRounds(blocker);
    expect(theo.seen.length).toBeGreaterThan(10);
    expect(theo.seen).not.toContain(blocked.me.id);
    expect(["out_of_votes", "no_candidates", null]).toContain(theo.ended);

    const quinby = await playRounds(blocked);
    expect(quinby.seen.length).toBeGreaterThan(10);
    expect(quinby.seen).not.toContain(blocker.me.id);
  });

  it("/admin is the 404 page for a student who is not an admin, and for a visitor", async () => {
    for (const kind of ["mobile", "desktop"] as const) {
      const student = await open(kind);
      await openSignedIn(student.page, baseURL, blocker, "/admin");
      await student.page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
      expect(new URL(student.page.url()).pathname).toBe("/admin");

      const visitor = await open(kind, "/admin");
      await visitor.page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
      expect(new URL(visitor.page.url()).pathname).toBe("/admin");
      if (kind === "mobile") await saveScreenshot(visitor.page, "admin-not-found-mobile");
    }
  });
});

describe("moderation", () => {
  const chromium = useBrowser();
  let server: SecondServer;

  beforeAll(async () => {
    server = await startSecondServer("moderation");
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it(
    "an admin granted with `pnpm admin:grant` sees the review queue and restores a student",
    { timeout: 240_000 },
    async () => {
      let api = createApi(server.baseURL(), "203.0.113.92");
      const admin = await createStudent(api, "+12027390201", "Morgan", "male", 40);
      const reported = await createStudent(api, "+12027390202", "Riley", "male", 150);
      const reporters = [
        await createStudent(api, "+12027390203", "Ash", "female", 260),
        await createStudent(api, "+12027390204", "Blair", "female", 90),
        await createStudent(api, "+12027390205", "Casey", "female", 20),
      ];
      // Only students shown Riley may report him: each reporter's round shows the school's two men.
      for (const reporter of reporters) {
        const round = await api.openRound(reporter);
        expect(round.users.map((user) => user.id)).toContain(reported.me.id);
      }
      // Reports count toward a hold by the reporter's account age (decision 0010): these are weeks old.
      await server.runSql(
        `update users set created_at = now() - interval '30 days' where phone in ('+12027390203', '+12027390204', '+12027390205')`,
      );
      api = createApi(server.baseURL(), "203.0.113.92");
      const report = (reporter: Student, body: object) =>
        api.api("/safety/report", {
          method: "POST",
          token: reporter.tokens.token,
          body: JSON.stringify({ target: { userId: reported.me.id }, ...body }),
        });
      await report(reporters[0]!, { reason: "fake_profile" });
      await report(reporters[1]!, { reason: "other", note: "Keeps messaging people from a fake account." });
      // The third established reporter puts the profile on hold.
      await report(reporters[2]!, { reason: "harassment" });

      await server.grantAdmin(admin.phone);
      const baseURL2 = server.baseURL();

      for (const kind of ["mobile", "desktop"] as const) {
        const page = await chromium.open(kind, `${baseURL2}/terms`);
        await openSignedIn(page.page, baseURL2, admin, "/admin");
        await page.page.getByRole("heading", { level: 1, name: "Moderation" }).waitFor();
        const riley = page.page.getByRole("article", { name: "Riley" });
        await riley.waitFor();
        await expect(riley.getByText("Fake profile").isVisible()).resolves.toBe(true);
        await expect(riley.getByText("Keeps messaging people from a fake account.").isVisible()).resolves.toBe(true);
        await expect(riley.getByText("3 reports").isVisible()).resolves.toBe(true);
        await expect(riley.getByText("On hold").isVisible()).resolves.toBe(true);
        // Who reported, for the moderator.
        for (const name of ["Ash", "Blair", "Casey"])
          await expect(riley.getByText(`by ${name}`).isVisible()).resolves.toBe(true);
        await page.page.getByText("Granted admin").waitFor();
        await page.page.waitForFunction(() =>
          Array.from(document.querySelectorAll<HTMLImageElement>("article img")).every((img) => img.complete),
        );
        await saveScreenshot(page.page, `admin-queue-${kind}`, { fullPage: true });

        if (kind === "desktop") {
          await riley.getByRole("button", { name: "Remove profile of Riley" }).click();
          await page.page.getByRole("dialog", { name: "Remove Riley's profile?" }).waitFor();
          await settle(page.page);
          await saveScreenshot(page.page, "admin-confirm-remove-desktop");
          await page.page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

          await riley.getByRole("button", { name: "Restore Riley" }).click();
          await page.page.getByText("Riley is restored").waitFor();
          await page.page.getByText("No open reports").waitFor();
          await page.page.getByText("Restored a profile").waitFor();
          await saveScreenshot(page.page, "admin-after-restore-desktop", { fullPage: true });
        }
        expect(page.errors).toEqual([]);
      }
    },
  );
});

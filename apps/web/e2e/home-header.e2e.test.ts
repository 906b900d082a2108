import { SCREEN_TEXT } from "@quad/contracts";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createApi, openSignedIn, type Student } from "./api";
import { animationsSettled, saveScreenshot, useBrowser } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * The home screen's header for a boosted student with a new vote, on a
 * 320 px and a 390 px phone and a 1366 px laptop: "See who voted for you"
 * stays a one-line button with its badge inside, the boost a chip of its own.
 */

const { api, createStudent, voteFor } = createApi(baseURL, "203.0.113.202");

const SCREENS = [
  { name: "320", kind: "mobile", viewport: { width: 320, height: 700 } },
  { name: "390", kind: "mobile", viewport: { width: 390, height: 844 } },
  { name: "1366", kind: "desktop", viewport: { width: 1366, height: 768 } },
] as const;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}

interface HeaderGeometry {
  header: Box;
  entry: Box;
  /** How many lines the entry's label takes. */
  entryLines: number;
  /** Whether the label is cut short (an ellipsis). */
  entryCut: boolean;
  badge: Box | null;
  boost: Box | null;
}

function headerGeometry(page: Page, entryName: string): Promise<HeaderGeometry> {
  return page.evaluate((name) => {
    const box = (element: Element | null | undefined) => {
      if (!element) return null;
      const { left, right, top, bottom, width, height } = element.getBoundingClientRect();
      return { left, right, top, bottom, width, height };
    };
    const entry = Array.from(document.querySelectorAll("button")).find((b) => b.textContent?.startsWith(name))!;
    // The label is the span holding the words, the badge's span inside it or beside it.
    const label = Array.from(entry.querySelectorAll("span")).find((span) => span.textContent?.startsWith(name))!;
    const style = getComputedStyle(label);
    const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    const boost = Array.from(document.querySelectorAll("p")).find((p) => p.textContent?.startsWith("Boosted ·"));
    return {
      header: box(document.querySelector("h1")!.parentElement)!,
      entry: box(entry)!,
      entryLines: Math.round(label.getBoundingClientRect().height / lineHeight),
      entryCut: label.scrollWidth > label.clientWidth + 1,
      badge: box(
        Array.from(entry.querySelectorAll("span")).find(
          (span) => !span.textContent?.startsWith(name) && /\d+\+? new$/.test(span.textContent ?? ""),
        ),
      ),
      boost: box(boost),
    };
  }, entryName);
}

describe("the home header of a boosted student", () => {
  const chromium = useBrowser();
  let student: Student;

  beforeAll(async () => {
    student = await createStudent("+12027480201", {
      firstName: "Marisol",
      gender: "female",
      colors: hueColors(330),
    });
    const voter = await createStudent("+12027480202", {
      firstName: "Theo",
      gender: "male",
      preference: "female",
      colors: hueColors(30),
    });
    await voteFor(voter, student);
    const { clientSecret } = await api<{ clientSecret: string }>("/payments/create-payment-intent", {
      method: "POST",
      token: student.tokens.token,
      body: JSON.stringify({ productId: "boost-1" }),
    });
    await api("/payments/local/confirm", {
      method: "POST",
      token: student.tokens.token,
      body: JSON.stringify({ clientSecret, cardNumber: "4242 4242 4242 4242" }),
    });
  }, 120_000);

  for (const screen of SCREENS) {
    it(`"See who voted for you" stays a one-line button beside the boost chip (${screen.name} px)`, async () => {
      const { page, errors } = await chromium.open(screen.kind, `${baseURL}/terms`, { viewport: screen.viewport });
      await openSignedIn(page, baseURL, student);
      await page.getByRole("button", { name: new RegExp(`^${SCREEN_TEXT.seeWhoVotedForYou}\\W+1 new$`) }).waitFor();
      await page.getByText(/^Boosted ·/).waitFor();
      await animationsSettled(page);
      await saveScreenshot(page, `home-header-boosted-${screen.name}`);

      const g = await headerGeometry(page, SCREEN_TEXT.seeWhoVotedForYou);
      expect(g.entryLines, "the entry's label wraps").toBe(1);
      expect(g.entryCut, "the entry's label is cut").toBe(false);
      expect(g.entry.height).toBeLessThanOrEqual(56);
      expect(g.badge, "the new-votes badge").not.toBeNull();
      expect(g.badge!.left).toBeGreaterThanOrEqual(g.entry.left);
      expect(g.badge!.right).toBeLessThanOrEqual(g.entry.right);
      expect(g.badge!.top).toBeGreaterThanOrEqual(g.entry.top);
      expect(g.badge!.bottom).toBeLessThanOrEqual(g.entry.bottom);
      expect(g.boost, "the boost chip").not.toBeNull();
      if (screen.kind === "mobile") {
        // A phone: the entry spans the header, the chip sits below it, not squeezing it.
        expect(g.entry.width).toBeGreaterThanOrEqual(g.header.width - 1);
        expect(g.boost!.top).toBeGreaterThanOrEqual(g.entry.bottom);
      }
      expect(errors).toEqual([]);
    });
  }
});

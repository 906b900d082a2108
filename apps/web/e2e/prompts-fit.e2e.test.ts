import { PROMPTS } from "../../../packages/db/src/seed/prompts-data";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createApi, openSignedIn, type Student } from "./api";
import { roundShown, saveScreenshot, useBrowser } from "./browser";
import { hueColors } from "./portrait";

const baseURL = inject("baseURL");

/**
 * Every prompt of the reference data, put in turn into the round's prompt
 * card on a 320 px and a 390 px phone and a 1366 px laptop: no word runs past
 * the card's edge (the card clips what spills, so it would be cut off).
 */

const { createStudent } = createApi(baseURL, "203.0.113.203");

const SCREENS = [
  { name: "320", kind: "mobile", viewport: { width: 320, height: 700 } },
  { name: "390", kind: "mobile", viewport: { width: 390, height: 844 } },
  { name: "1366", kind: "desktop", viewport: { width: 1366, height: 768 } },
] as const;

/** The longest word a line cannot break (hyphens can), in characters. */
const longestWord = (prompt: string) => Math.max(...prompt.split(/[ -]/).map((word) => word.length));

/** The prompt with the longest such word, for the screenshots. */
const LONGEST_WORD_PROMPT = PROMPTS.reduce((longest, prompt) =>
  longestWord(prompt) > longestWord(longest) ? prompt : longest,
);

describe("the prompt card", () => {
  const chromium = useBrowser();
  let student: Student;

  beforeAll(async () => {
    student = await createStudent("+12027480301", { firstName: "Noor", gender: "female", colors: hueColors(90) });
  }, 60_000);

  for (const screen of SCREENS) {
    it(`holds every reference prompt inside its edges (${screen.name} px)`, async () => {
      const { page, errors } = await chromium.open(screen.kind, `${baseURL}/terms`, { viewport: screen.viewport });
      await openSignedIn(page, baseURL, student);
      await roundShown(page);

      const spills = await page.evaluate((prompts) => {
        const heading = document.querySelector<HTMLElement>("section h2")!;
        const card = heading.parentElement!;
        const cardBox = card.getBoundingClientRect();
        const padding = parseFloat(getComputedStyle(card).paddingRight);
        const found: string[] = [];
        for (const prompt of prompts) {
          heading.textContent = prompt;
          // A word broken across two lines fits, but only by the last-resort break.
          const text = heading.firstChild!;
          let at = 0;
          // At a hyphen a line may end: each side of it is a word of its own.
          for (const word of prompt.split(/(?<=-)| /)) {
            if (prompt[at] === " ") at++;
            const piece = document.createRange();
            piece.setStart(text, at);
            piece.setEnd(text, at + word.length);
            at += word.length;
            const tops = new Set(Array.from(piece.getClientRects()).map((rect) => Math.round(rect.top)));
            if (tops.size > 1) {
              found.push(
                `${prompt} ("${word}" broken over two lines at ${getComputedStyle(heading).fontSize} in ${heading.clientWidth} px)`,
              );
            }
          }
          const range = document.createRange();
          range.selectNodeContents(heading);
          for (const line of Array.from(range.getClientRects())) {
            // Past the card's padding is past where the text may go; past its border the text is cut off.
            if (line.right > cardBox.right - padding + 0.5 || line.left < cardBox.left + padding - 0.5) {
              found.push(`${prompt} (a line ${Math.round(line.width)} px wide, ${Math.round(cardBox.width)} px card)`);
              break;
            }
          }
        }
        return found;
      }, PROMPTS);
      expect(spills).toEqual([]);

      // Two to look at: the longest word, and the prompt that used to spill on a laptop.
      await page.evaluate(
        (prompt) => (document.querySelector("section h2")!.textContent = prompt),
        LONGEST_WORD_PROMPT,
      );
      await saveScreenshot(page, `prompt-longest-word-${screen.name}`);
      await page.evaluate(
        (prompt) => (document.querySelector("section h2")!.textContent = prompt),
        "Most encouraging person before an exam",
      );
      await saveScreenshot(page, `prompt-encouraging-${screen.name}`);
      expect(errors).toEqual([]);
    });
  }
});

import { users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";

/**
 * h-41 hostile review of "format characters are refused in single-line fields;
 * a first name needs a letter" (packages/contracts/src/validation.ts).
 *
 * BREAK: the Hangul fillers are letters (general category Lo), not format
 * characters (Cf), and draw nothing: "\u3164\u3164" (HANGUL FILLER), "\u115F\u1160"
 * (CHOSEONG and JUNGSEONG FILLER) and "\uFFA0\uFFA0" (HALFWIDTH HANGUL FILLER)
 * pass both FORMAT_CHARACTER and the `\p{L}` check, so a student's name on every
 * card and candidate is blank, the very thing the rule was added to stop. The
 * combining grapheme joiner U+034F (Mn, default-ignorable) passes too, so
 * "Av\u034Fery" shows as a classmate's "Avery" while being another string.
 * Fix (FirstNameSchema / oneLineText): refuse Unicode's Default_Ignorable_Code_Point
 * (/\p{Default_Ignorable_Code_Point}/u covers the fillers, U+034F, variation
 * selectors (sparing U+FE0F after a pictograph, as in the emoji field) and all of Cf), sparing the joiners and flag tags as now;
 * and require the letter test on the name with those removed. The joiners U+200C/U+200D are
 * spared between any two letters (JOINER_BETWEEN_VISIBLE), Latin ones too, where they draw
 * nothing and only make a lookalike: spare them only next to a letter of a script that uses
 * them (Arabic, the Indic scripts) or inside an emoji sequence.
 */
const VIAS = ["rest", "trpc"] as const;
let t: TestApp;
let c: Awaited<ReturnType<typeof campus>>;
beforeAll(async () => {
  t = await createTestApp();
  c = await campus(t, { firstName: "Avery" });
});
afterAll(() => t?.close());
afterEach(async () => {
  await t.deps.db.update(users).set({ firstName: "Avery" }).where(eq(users.id, c.me.id));
});

async function update(via: (typeof VIAS)[number], payload: object) {
  const res = await t.app.inject({
    method: via === "rest" ? "PATCH" : "POST",
    url: via === "rest" ? "/api/users/update" : "/api/trpc/users.update",
    headers: c.headers,
    payload,
  });
  return { status: res.statusCode, body: res.body };
}
const storedName = async () =>
  (await t.deps.db.select({ firstName: users.firstName }).from(users).where(eq(users.id, c.me.id)))[0]!.firstName;

const BLANK_OR_LOOKALIKE: [string, string][] = [
  ["two Hangul fillers", "\u3164\u3164"],
  ["the Hangul choseong and jungseong fillers", "\u115F\u1160"],
  ["two halfwidth Hangul fillers", "\uFFA0\uFFA0"],
  ["a combining grapheme joiner inside a classmate's name", "Av\u034Fery"],
  ["a zero-width joiner between two Latin letters of a classmate's name", "Av\u200Dery"],
  ["a zero-width non-joiner between two Latin letters of a classmate's name", "Ave\u200Cry"],
];

describe.each(VIAS)("invisible letters in a first name over %s", (via) => {
  it.each(BLANK_OR_LOOKALIKE)("a first name of %s answers 400 and is not stored", async (_name, text) => {
    const res = await update(via, { firstName: text });
    expect(res.status, res.body).toBe(400);
    expect(await storedName()).toBe("Avery");
  });
});

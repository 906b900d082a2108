import { users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";

/**
 * Letters and marks that draw nothing get past a rule about "format
 * characters" alone: the Hangul fillers are letters (Lo) that show as blanks,
 * the combining grapheme joiner (Mn) makes "Av\u034Fery" look like a
 * classmate's "Avery", and a joiner between two Latin letters does the same.
 * Single-line fields refuse Unicode's default-ignorable characters, sparing
 * only what writing needs (joiners in emoji and in the scripts that use them).
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

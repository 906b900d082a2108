import { VALIDATION } from "@quad/contracts";
import { users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";

/**
 * A student names themselves with characters nobody sees: three zero-width
 * spaces (a card with no name on it), or a right-to-left override that turns
 * round whatever is shown after the name. Every field of one line refuses
 * Unicode's format characters with that field's own error, over REST and
 * tRPC, and nothing is stored; a first name needs a letter.
 */

const VIAS = ["rest", "trpc"] as const;
type Via = (typeof VIAS)[number];

let t: TestApp;
let c: Awaited<ReturnType<typeof campus>>;
beforeAll(async () => {
  t = await createTestApp();
  c = await campus(t, { firstName: "Avery" });
});
afterAll(() => t?.close());

async function update(via: Via, payload: object) {
  const res = await t.app.inject({
    method: via === "rest" ? "PATCH" : "POST",
    url: via === "rest" ? "/api/users/update" : "/api/trpc/users.update",
    headers: c.headers,
    payload,
  });
  const body = res.json();
  return {
    status: res.statusCode,
    message: (via === "rest" ? body.message : body.error?.message) as string,
    fieldErrors: (via === "rest" ? body.fieldErrors : body.error?.data?.fieldErrors) as Record<string, string[]>,
  };
}

const storedName = async () =>
  (await t.deps.db.select({ firstName: users.firstName }).from(users).where(eq(users.id, c.me.id)))[0]!.firstName;

const INVISIBLE = [
  ["three zero-width spaces", "\u200b\u200b\u200b"],
  ["a right-to-left override", "Ava\u202egnp.exe"],
  ["a zero-width no-break space", "Av\ufeffery"],
  ["a right-to-left mark", "\u200fAvery"],
  ["a first-strong isolate", "\u2068Avery\u2069"],
  ["a soft hyphen", "Av\u00adery"],
];

describe.each(VIAS)("format characters over %s", (via) => {
  it.each(INVISIBLE)("a first name, organization, interest or emoji with %s answers 400 naming it", async (_, text) => {
    const cases: [string, object][] = [
      ["firstName", { firstName: text }],
      ["organizations.0", { organizations: [`${text}Chess`] }],
      ["interests.1", { interests: ["Hiking", `${text}`] }],
      ["emojis.0", { emojis: [`🎸${text}`] }],
    ];
    for (const [field, payload] of cases) {
      const res = await update(via, payload);
      expect([res.status, res.message], field).toEqual([400, VALIDATION.controlCharacters]);
      expect(res.fieldErrors[field]?.[0], field).toBe(VALIDATION.controlCharacters);
    }
    expect(await storedName()).toBe("Avery");
  });

  it("a first name of digits or punctuation alone needs a letter", async () => {
    for (const firstName of ["1234", "💥💥", "...."]) {
      const res = await update(via, { firstName });
      expect([res.status, res.fieldErrors.firstName], firstName).toEqual([400, [VALIDATION.firstNameLetter]]);
    }
    expect(await storedName()).toBe("Avery");
  });

  it("joined emoji and a name written with a zero-width non-joiner are kept", async () => {
    const name = "\u0645\u06cc\u200c\u0646\u0627";
    const res = await update(via, { firstName: name, emojis: ["👩\u200d💻", "👍🏽"] });
    expect(res.status).toBe(200);
    expect(await storedName()).toBe(name);
    expect((await update(via, { firstName: "Avery" })).status).toBe(200);
  });
});

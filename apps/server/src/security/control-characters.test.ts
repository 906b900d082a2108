import { VALIDATION } from "@quad/contracts";
import { reports, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { showTo } from "../test/shown";
import { campus } from "../test/voters";

/**
 * A NUL byte (or another control character) in any text a student sends
 * answers 400 naming the field, never a 500 from Postgres (which refuses
 * NUL in text), and nothing is stored. Tried over REST and tRPC, on the
 * embedded database and on PostgreSQL alike (whichever DATABASE_URL says).
 */

const VIAS = ["rest", "trpc"] as const;
type Via = (typeof VIAS)[number];

let t: TestApp;
let c: Awaited<ReturnType<typeof campus>>;
/** A student shown to the caller, one for each protocol: a student reports another once. */
const shown: Record<Via, string> = { rest: "", trpc: "" };

beforeAll(async () => {
  t = await createTestApp();
  c = await campus(t, { firstName: "Avery", createdAt: new Date(Date.now() - 30 * 86_400_000) });
  for (const via of VIAS) {
    const a = await c.student({ gender: "female" });
    const b = await c.student({ gender: "female" });
    await showTo(t, c.me.id, a.id, b.id);
    shown[via] = a.id;
  }
}, 60_000);
afterAll(() => t?.close());

async function send(via: Via, method: "POST" | "PATCH", rest: string, procedure: string, payload: object) {
  const res = await t.app.inject({
    method: via === "rest" ? method : "POST",
    url: via === "rest" ? `/api${rest}` : `/api/trpc/${procedure}`,
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

const CONTROL = [
  ["NUL", "\u0000"],
  ["an escape sequence", "\u001b[2J"],
  ["BEL", "\u0007"],
  ["DEL", "\u007f"],
  ["NEL (C1)", "\u0085"],
];

describe.each(VIAS)("control characters over %s", (via) => {
  it.each(CONTROL)(
    "a profile's first name, organizations, interests or emojis with %s answer 400 naming the field",
    async (_, char) => {
      const cases: [string, object][] = [
        ["firstName", { firstName: `Ava${char}ry` }],
        ["organizations.1", { organizations: ["Chess", `Robotics${char}`] }],
        ["interests.0", { interests: [`${char}Hiking`] }],
        ["emojis.0", { emojis: [`🎸${char}`] }],
      ];
      for (const [field, payload] of cases) {
        const res = await send(via, "PATCH", "/users/update", "users.update", payload);
        expect([res.status, res.message], field).toEqual([400, VALIDATION.controlCharacters]);
        expect(res.fieldErrors[field], field).toEqual([VALIDATION.controlCharacters]);
      }
      const [me] = await t.deps.db.select().from(users).where(eq(users.id, c.me.id));
      expect(me!.firstName).toBe("Avery");
    },
  );

  it("a line break in a one-line field is refused too, in a report's note it is kept", async () => {
    const name = await send(via, "PATCH", "/users/update", "users.update", { firstName: "Ava\nry" });
    expect([name.status, name.fieldErrors.firstName]).toEqual([400, [VALIDATION.controlCharacters]]);
    const report = await send(via, "POST", "/safety/report", "safety.report", {
      target: { userId: shown[via] },
      reason: "other",
      note: `Line one\nline two (${via})`,
    });
    expect(report.status).toBe(200);
  });

  it("a report's note with a NUL answers 400 naming the note and stores no report", async () => {
    const before = (await t.deps.db.select().from(reports).where(eq(reports.reporterId, c.me.id))).length;
    const res = await send(via, "POST", "/safety/report", "safety.report", {
      target: { userId: shown[via] },
      reason: "other",
      note: "They \u0000 did it",
    });
    expect([res.status, res.fieldErrors.note]).toEqual([400, [VALIDATION.controlCharacters]]);
    expect((await t.deps.db.select().from(reports).where(eq(reports.reporterId, c.me.id))).length).toBe(before);
  });

  it("fields no person types (tokens, secrets, card numbers) refuse a NUL with 400 too", async () => {
    const cases: [string, "POST", string, string, object][] = [
      ["refreshToken", "POST", "/auth/refresh", "auth.refresh", { refreshToken: "a\u0000b" }],
      ["refreshToken", "POST", "/auth/logout", "auth.logout", { refreshToken: "a\u0000b" }],
      [
        "clientSecret",
        "POST",
        "/payments/local/confirm",
        "payments.localConfirm",
        { clientSecret: "pi_\u0000", cardNumber: "4242424242424242" },
      ],
      [
        "productId",
        "POST",
        "/payments/create-payment-intent",
        "payments.createPaymentIntent",
        { productId: "x\u0000" },
      ],
    ];
    for (const [field, method, rest, procedure, payload] of cases) {
      const res = await send(via, method, rest, procedure, payload);
      expect([res.status, res.fieldErrors?.[field]], procedure).toEqual([400, [VALIDATION.controlCharacters]]);
    }
  });
});

describe("control characters in Twilio's webhooks (plain routes, not procedures)", () => {
  it.each([
    ["/api/sms/status", "MessageSid=SM%00x&MessageStatus=delivered"],
    ["/api/sms/status", "SmsSid=SM%00x&SmsStatus=delivered"],
    ["/api/sms/inbound", "From=%2B12025550123&Body=STOP%00"],
  ])("%s with %s answers 400, not a 5xx", async (url, payload) => {
    const res = await t.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload,
    });
    expect([res.statusCode, res.json().message]).toEqual([400, VALIDATION.controlCharacters]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { testPhone } from "../test/auth";
import { campus } from "../test/voters";

/**
 * Sign-in says nothing about whether a phone has an account. The attack:
 * for a phone that belongs to a student and one that belongs to nobody,
 * ask for a code, ask again at once, and try a wrong code, over REST and
 * tRPC; any difference in status, message or body names the registered
 * phone without its owner's code.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ generateCode: () => "135790" });
});
afterAll(() => t?.close());

type Via = "rest" | "trpc";
type SendAnswer = { codeRequestId?: string; result?: { data?: { codeRequestId?: string } } };
const codeRequestIdOf = (body: SendAnswer) => body.codeRequestId ?? body.result?.data?.codeRequestId;
async function call(via: Via, procedure: "sendCode" | "verifyCode", payload: object, ip: string) {
  const url =
    via === "rest"
      ? `/api/auth/${procedure === "sendCode" ? "send-code" : "verify-code"}`
      : `/api/trpc/auth.${procedure}`;
  const res = await t.app.inject({ method: "POST", url, payload, remoteAddress: ip });
  // Everything the caller sees, but the retry time's exact seconds (a clock, not the phone).
  return {
    status: res.statusCode,
    body: res.body
      .replace(/"retryAfterSeconds":\d+/g, '"retryAfterSeconds":N')
      .replace(/"codeRequestId":"[\w-]+"/g, '"codeRequestId":"…"'),
    codeRequestId: codeRequestIdOf(res.json()),
    retryAfter: res.headers["retry-after"] !== undefined,
  };
}

async function probe(via: Via, phone: string, ip: string) {
  const sent = await call(via, "sendCode", { phone }, ip);
  const codeRequestId = sent.codeRequestId;
  const answers = [
    sent,
    await call(via, "sendCode", { phone }, ip),
    await call(via, "verifyCode", { phone, code: "000000", codeRequestId }, ip),
  ];
  // The request's value is random: compared by its shape above, not its letters.
  return answers.map(({ codeRequestId: _, ...seen }) => seen);
}

describe("sign-in does not tell registered phones from others", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`answers a student's phone and nobody's phone alike (${via})`, async () => {
      const registered = (await campus(t)).me.phone;
      const nobody = testPhone();
      const a = await probe(via, registered, "10.61.0.1");
      const b = await probe(via, nobody, "10.61.0.2");
      expect(a).toEqual(b);
      // (A sent code, the 30-second wait, a refused wrong code.)
      expect(a.map((r) => r.status).slice(0, 2)).toEqual([200, 429]);
      expect(a[2]!.status).toBeGreaterThanOrEqual(400);
      expect(a[2]!.status).toBeLessThan(500);
    });
  }
});

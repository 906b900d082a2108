import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { bearer, latestCode, SIGNUP_CONSENTS, testPhone } from "../test/auth";
import { testClock } from "../test/sms";
import { campus, sessionFor } from "../test/voters";

/**
 * A hostile student: ways around "a new account needs both sign-up consents"
 * that signup-consents.test.ts does not try. All hold.
 * - a phone whose account was deleted (its consents go with it) signs up again without them;
 * - consents spelled as strings, numbers, null or with an extra key.
 */
const VIAS = ["rest", "trpc"] as const;
type Via = (typeof VIAS)[number];
const clock = testClock(new Date());
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
});
afterAll(() => t?.close());

async function call(via: Via, rest: string, procedure: string, payload: object, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: "POST",
    url: via === "rest" ? `/api${rest}` : `/api/trpc/${procedure}`,
    payload,
    headers,
  });
  return { status: res.statusCode, body: res.body };
}
async function verify(via: Via, phone: string, extra: object = {}) {
  clock.advance(61_000);
  const sent = await call(via, "/auth/send-code", "auth.sendCode", { phone });
  expect(sent.status, sent.body).toBe(200);
  const parsed = JSON.parse(sent.body) as { codeRequestId?: string; result?: { data: { codeRequestId: string } } };
  const codeRequestId = parsed.codeRequestId ?? parsed.result!.data.codeRequestId;
  const code = await latestCode(t.app, phone);
  return call(via, "/auth/verify-code", "auth.verifyCode", { phone, code, codeRequestId, ...extra });
}

describe.each(VIAS)("consents over %s", (via) => {
  it("a phone whose account was deleted must give them again to sign up", async () => {
    const c = await campus(t);
    const student = await c.student({ gender: "female" });
    const headers = bearer(await sessionFor(t, student.phone));
    const deleted = await call(via, "/users/delete-account", "account.delete", { confirm: "DELETE" }, headers);
    expect(deleted.status, deleted.body).toBe(200);
    const again = await verify(via, student.phone);
    expect(again.status, again.body).toBe(400);
    expect(again.body).not.toContain("refreshToken");
    expect((await verify(via, student.phone, { consents: SIGNUP_CONSENTS })).status).toBe(200);
  });

  it.each([
    ["strings", { sms: "true", terms: "true" }],
    ["numbers", { sms: 1, terms: 1 }],
    ["null", null],
    ["an extra key", { ...SIGNUP_CONSENTS, admin: true }],
    ["an array", [true, true]],
  ])("consents as %s are refused, with no session", async (_name, consents) => {
    const res = await verify(via, testPhone(), { consents });
    expect(res.status, res.body).toBe(400);
    expect(res.body).not.toContain("refreshToken");
  });
});

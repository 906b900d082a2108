import { randomBytes } from "node:crypto";
import { SIGN_IN_MESSAGES, VALIDATION } from "@quad/contracts";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { latestCode, SIGNUP_CONSENTS, testPhone } from "../test/auth";
import { testClock } from "../test/sms";

/**
 * Nobody can lock a student out of sign-in. The attack: wrong codes for
 * someone else's phone, from another address, as fast as the server takes
 * them; then the owner, on their own network, asks for a code and signs in
 * at once. A code is bound to the request that asked for it (send-code's
 * `codeRequestId`): no other request's value checks it. A requester that
 * keeps guessing is slowed down, not the phone.
 */
type Via = "rest" | "trpc";
type Name = "sendCode" | "verifyCode";
interface Fields {
  codeRequestId?: string;
  token?: string;
  refreshToken?: string;
}
/** A REST answer or a tRPC envelope, as far as these tests read them. */
interface Answer extends Fields {
  message?: string;
  fieldErrors?: Record<string, string[]>;
  result?: { data?: Fields };
  error?: { message?: string; data?: { fieldErrors?: Record<string, string[]> } };
}

const OWNER = "203.0.113.10";
const ATTACKER = "198.51.100.66";
const WRONG = "000000";

let apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.map((a) => a.close()));
  apps = [];
});

async function appAt(iso: string) {
  const clock = testClock(iso);
  let next = 100_000;
  const t = await createTestApp({ now: clock.now, generateCode: () => String(++next) });
  apps.push(t);
  return { t, clock };
}

async function call(t: TestApp, via: Via, name: Name, payload: object, ip: string) {
  const url =
    via === "rest" ? `/api/auth/${name === "sendCode" ? "send-code" : "verify-code"}` : `/api/trpc/auth.${name}`;
  // Each phone here is new: a check carries the sign-up's consents, as the sign-up form sends them.
  const sent = name === "verifyCode" ? { ...payload, consents: SIGNUP_CONSENTS } : payload;
  const res = await t.app.inject({ method: "POST", url, payload: sent, remoteAddress: ip });
  const body = res.json() as Answer;
  const rest = via === "rest";
  return {
    status: res.statusCode,
    retryAfter: res.headers["retry-after"] === undefined ? undefined : Number(res.headers["retry-after"]),
    data: rest ? (body as Fields) : body.result?.data,
    message: rest ? body.message : body.error?.message,
    fieldErrors: rest ? body.fieldErrors : body.error?.data?.fieldErrors,
  };
}

/** The owner asks for a code on their own network, reads it from their phone and enters it: signed in. */
async function ownerSignsIn(t: TestApp, via: Via, phone: string) {
  const sent = await call(t, via, "sendCode", { phone }, OWNER);
  expect(sent.status, sent.message).toBe(200);
  const code = await latestCode(t.app, phone);
  const verified = await call(t, via, "verifyCode", { phone, code, codeRequestId: sent.data?.codeRequestId }, OWNER);
  expect(verified.status, verified.message).toBe(200);
  expect(verified.data).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String) });
}

describe("a stranger's wrong codes never lock the owner out", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`50 wrong codes from another address within two minutes, then the owner asks for a code and signs in at once (${via})`, async () => {
      const { t, clock } = await appAt("2026-11-27T12:00:00Z");
      const phone = testPhone();
      let requestId: string | undefined;
      const statuses: number[] = [];
      for (let i = 0; i < 50; i++) {
        // A fresh code now and then, as an attacker would, when the server sends one.
        if (!requestId || i % 5 === 0) {
          const sent = await call(t, via, "sendCode", { phone }, ATTACKER);
          if (sent.status === 200) requestId = sent.data?.codeRequestId;
        }
        const guess = await call(t, via, "verifyCode", { phone, code: WRONG, codeRequestId: requestId }, ATTACKER);
        statuses.push(guess.status);
        clock.advance(2_000);
      }
      expect(statuses).not.toContain(200);
      // Real guesses were checked (400 "Invalid verification code"), not only refused at the door.
      expect(statuses.filter((s) => s === 400).length).toBeGreaterThanOrEqual(3);
      await ownerSignsIn(t, via, phone);
    });

    it(`50 wrong codes from ten addresses leave the owner a code and a try (${via})`, async () => {
      const { t, clock } = await appAt("2026-11-27T12:00:00Z");
      const phone = testPhone();
      for (let a = 0; a < 10; a++) {
        const ip = `198.51.100.${100 + a}`;
        const sent = await call(t, via, "sendCode", { phone }, ip);
        expect(sent.status).toBe(200);
        for (let i = 0; i < 5; i++) {
          const guess = await call(
            t,
            via,
            "verifyCode",
            { phone, code: WRONG, codeRequestId: sent.data?.codeRequestId },
            ip,
          );
          expect(guess.status).not.toBe(200);
          clock.advance(1_000);
        }
      }
      await ownerSignsIn(t, via, phone);
    });
  }
});

describe("a code is checked only with the value its own request answered", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`another request's value, an invented one and none at all are refused; the code's own works (${via})`, async () => {
      const { t } = await appAt("2026-11-27T12:00:00Z");
      const phone = testPhone();
      const mine = await call(t, via, "sendCode", { phone }, OWNER);
      expect(mine.status).toBe(200);
      const code = await latestCode(t.app, phone);
      const theirs = await call(t, via, "sendCode", { phone }, ATTACKER);
      expect(theirs.status).toBe(200);
      expect(theirs.data?.codeRequestId).not.toBe(mine.data?.codeRequestId);

      // The right code with another code's value: wrong for that code.
      const crossed = await call(
        t,
        via,
        "verifyCode",
        { phone, code, codeRequestId: theirs.data?.codeRequestId },
        OWNER,
      );
      expect(crossed).toMatchObject({ status: 400, message: SIGN_IN_MESSAGES.invalid });
      const invented = randomBytes(32).toString("base64url");
      const made = await call(t, via, "verifyCode", { phone, code, codeRequestId: invented }, ATTACKER);
      expect(made).toMatchObject({ status: 400, message: SIGN_IN_MESSAGES.unknownRequest });
      const none = await call(t, via, "verifyCode", { phone, code }, ATTACKER);
      expect(none).toMatchObject({ status: 400, message: VALIDATION.codeRequestId });
      expect(none.fieldErrors).toEqual({ codeRequestId: [VALIDATION.codeRequestId] });
      // The value of this phone's code, for another phone: nothing there.
      const elsewhere = await call(
        t,
        via,
        "verifyCode",
        { phone: testPhone(), code, codeRequestId: mine.data?.codeRequestId },
        OWNER,
      );
      expect(elsewhere).toMatchObject({ status: 400, message: SIGN_IN_MESSAGES.unknownRequest });

      const right = await call(t, via, "verifyCode", { phone, code, codeRequestId: mine.data?.codeRequestId }, OWNER);
      expect(right.status, right.message).toBe(200);
    });
  }
});

describe("a requester guessing is slowed down, not the phone", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`after three wrong codes each check waits longer: 429 with Retry-After; the owner is not slowed (${via})`, async () => {
      const { t, clock } = await appAt("2026-11-27T12:00:00Z");
      const phone = testPhone();
      const sent = await call(t, via, "sendCode", { phone }, ATTACKER);
      const guess = () =>
        call(t, via, "verifyCode", { phone, code: WRONG, codeRequestId: sent.data?.codeRequestId }, ATTACKER);
      for (let i = 0; i < 3; i++) expect((await guess()).status).toBe(400);

      const first = await guess();
      expect(first).toMatchObject({ status: 429, message: SIGN_IN_MESSAGES.slowDown(2), retryAfter: 2 });
      clock.advance(2_000);
      expect((await guess()).status).toBe(400);
      const second = await guess();
      expect(second).toMatchObject({ status: 429, message: SIGN_IN_MESSAGES.slowDown(4), retryAfter: 4 });
      // Another address changes nothing: the wait belongs to the code's requester.
      const elsewhere = await call(
        t,
        via,
        "verifyCode",
        { phone, code: WRONG, codeRequestId: sent.data?.codeRequestId },
        "192.0.2.99",
      );
      expect(elsewhere.status).toBe(429);

      await ownerSignsIn(t, via, phone);
    });
  }
});

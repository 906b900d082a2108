import { SIGN_IN_CODES_PER_ADDRESS, SIGN_IN_MESSAGES } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { sendCodeFrom, testPhone } from "../test/auth";
import { testClock } from "../test/sms";

/**
 * The fourth hostile review of the address's sign-in codes given back when
 * the SMS budget refuses the text: a burst of concurrent refused requests,
 * on one phone and on many, must leave the address's count where it was,
 * never below (a negative count would be extra codes), and an address at
 * its limit gets nothing back from requests its own limit refused.
 */
const CAMPUS = "192.0.2.77";
const ELSEWHERE = "198.51.100.77";
const KEY = `send-code:ip:${CAMPUS}`;
const HOUR = 60 * 60 * 1000;

let t: TestApp;
const clock = testClock("2026-11-27T12:00:00Z");
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, env: { SMS_HOURLY_BUDGET: "1" } });
}, 60_000);
afterAll(() => t?.close());

const sendCode = (rest: boolean, phone: string, ip: string) => sendCodeFrom(t.app, rest, phone, ip);
const messageOf = (res: Awaited<ReturnType<typeof sendCode>>) => res.json().message ?? res.json().error?.message;

describe("the address's code given back when the budget refuses", () => {
  it("a concurrent burst leaves the count where it was, never below", async () => {
    expect((await sendCode(true, testPhone(), ELSEWHERE)).statusCode).toBe(200);
    // Two real codes already counted for the campus this hour.
    await t.deps.rateLimiter.consume(KEY, SIGN_IN_CODES_PER_ADDRESS.limit, HOUR);
    await t.deps.rateLimiter.consume(KEY, SIGN_IN_CODES_PER_ADDRESS.limit, HOUR);
    const one = testPhone();
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => sendCode(i % 2 === 0, i % 4 === 0 ? one : testPhone(), CAMPUS)),
    );
    expect(burst.every((res) => res.statusCode === 429)).toBe(true);
    expect(burst.every((res) => messageOf(res) === SIGN_IN_MESSAGES.smsBudgetSpent)).toBe(true);
    // With limit 3 the next consume is allowed only if the count is exactly 2, then refused: not below, not above.
    expect((await t.deps.rateLimiter.consume(KEY, 3, HOUR)).allowed).toBe(true);
    expect((await t.deps.rateLimiter.consume(KEY, 3, HOUR)).allowed).toBe(false);
  });

  it("an address at its limit gets no code back from requests its own limit refused", async () => {
    const full = "192.0.2.78";
    const key = `send-code:ip:${full}`;
    for (let i = 0; i < SIGN_IN_CODES_PER_ADDRESS.limit; i++) {
      await t.deps.rateLimiter.consume(key, SIGN_IN_CODES_PER_ADDRESS.limit, HOUR);
    }
    const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => sendCode(i % 2 === 0, testPhone(), full)));
    expect(burst.every((res) => messageOf(res) === SIGN_IN_MESSAGES.tooManyFromIp)).toBe(true);
    // The budget's hour turns; the address's hour has not: still refused from the network.
    clock.advance(HOUR - 60_000);
    const after = await sendCode(true, testPhone(), full);
    expect(after.statusCode).toBe(429);
    expect(messageOf(after)).toBe(SIGN_IN_MESSAGES.tooManyFromIp);
  });
});

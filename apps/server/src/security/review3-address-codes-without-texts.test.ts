import { SIGN_IN_CODES_PER_ADDRESS, SIGN_IN_MESSAGES } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { sendCodeFrom, testPhone } from "../test/auth";
import { testClock } from "../test/sms";

/**
 * The campus's sign-in codes (1,000 an hour per address) are to be spent
 * only by a text that goes out. They were taken before the app's hourly
 * SMS budget was asked: once the budget was spent, every refused request
 * still took one of the address's codes. The attack: near the end of the
 * budget's hour one student behind the campus address asks 1,000 times
 * (each refused, no text); the budget comes back, and every classmate there
 * is refused a code for most of another hour ("…from your network").
 */
const CAMPUS = "192.0.2.91";
const ELSEWHERE = "198.51.100.5";

let t: TestApp;
const clock = testClock("2026-11-27T12:00:00Z");
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, env: { SMS_HOURLY_BUDGET: "1" } });
}, 60_000);
afterAll(() => t?.close());

const sendCode = (rest: boolean, phone: string, ip: string) => sendCodeFrom(t.app, rest, phone, ip);

describe("requests the SMS budget refuses spend none of the address's codes", () => {
  it("1,000 refused while the budget is spent, then classmates get codes once it is back (REST and tRPC)", async () => {
    // The hour's budget (one text here) goes to someone elsewhere at 12:00.
    expect((await sendCode(true, testPhone(), ELSEWHERE)).statusCode).toBe(200);
    clock.advance(50 * 60_000);
    for (let i = 0; i < SIGN_IN_CODES_PER_ADDRESS.limit; i++) {
      const res = await sendCode(i % 2 === 0, testPhone(), CAMPUS);
      expect(res.statusCode).toBe(429);
      if (i === 0) expect(res.json().message).toBe(SIGN_IN_MESSAGES.smsBudgetSpent);
    }
    // 13:01: a new hour of budget.
    clock.advance(11 * 60_000);
    const rest = await sendCode(true, testPhone(), CAMPUS);
    expect(rest.statusCode, rest.body).toBe(200);
    clock.advance(60_000);
    const trpc = await sendCode(false, testPhone(), CAMPUS);
    expect(trpc.statusCode, trpc.body).toBe(429);
    // The budget (one text an hour) refuses the second, not the campus's codes.
    expect(trpc.json().error.message).toBe(SIGN_IN_MESSAGES.smsBudgetSpent);
  }, 120_000);
});

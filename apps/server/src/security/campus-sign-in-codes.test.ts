import { SIGN_IN_CODES_PER_ADDRESS } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../rate-limit/limiter";
import { createTestApp, type TestApp } from "../test/app";
import { sendCodeFrom, testPhone } from "../test/auth";

/**
 * The campus's sign-in codes (1,000 an hour per address) were counted before
 * the per-phone rules, so a request those rules refused (no text went out,
 * nothing was stored) still spent one. One student behind the campus address
 * asks for a code for one number (their own) 1,000 times in a row: every
 * request after the first is refused as too soon, and then every classmate
 * behind that address was refused a sign-in code for the rest of the hour
 * ("Too many codes were requested from your network"). The limiter's clock
 * stands still: everything is in one hour.
 */
const CAMPUS_ADDRESS = "192.0.2.78";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimiter: createMemoryRateLimiter(() => Date.parse("2026-11-27T12:00:00Z")) });
});
afterAll(() => t?.close());

const sendCode = (rest: boolean, phone: string) => sendCodeFrom(t.app, rest, phone, CAMPUS_ADDRESS);

describe("one student on a campus address cannot stop classmates getting sign-in codes", () => {
  it("1,000 refused requests for one number, then classmates ask for codes over REST and tRPC: not 429", async () => {
    const attacker = testPhone();
    const statuses = new Map<number, number>();
    for (let i = 0; i < SIGN_IN_CODES_PER_ADDRESS.limit; i++) {
      const res = await sendCode(i % 2 === 0, attacker);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
    // One text went out; every other request was refused by the number's own limits.
    expect(statuses.get(200)).toBe(1);

    const rest = await sendCode(true, testPhone());
    const trpc = await sendCode(false, testPhone());
    expect(rest.statusCode, rest.body).toBe(200);
    expect(trpc.statusCode, trpc.body).toBe(200);
  }, 120_000);
});

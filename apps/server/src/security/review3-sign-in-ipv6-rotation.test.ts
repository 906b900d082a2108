import { AUTH_CODE } from "@quad/contracts";
import { authCodes } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { addressKey, siteKey } from "../rate-limit/address";
import { createTestApp, type TestApp } from "../test/app";
import { latestCode, SIGNUP_CONSENTS, testPhone } from "../test/auth";
import { testClock } from "../test/sms";

/**
 * A sign-in requester is a phone asked about from one client address, and
 * each requester's first code of the day goes out even past the phone's 50
 * texts a day, so the owner always gets one. An IPv6 address counts by its
 * /64; but one site is given a /48 (a free tunnel broker hands one out, a
 * small host too): 65,536 /64s, each a fresh requester with a first code
 * and, once the phone has taken 15 wrong codes, a try on it. From one /48
 * an attacker could text a student without end and guess at one code per
 * text up to the app's whole hourly SMS budget (2,000 by default: about
 * 48,000 guesses a day, a 1-in-21 chance a day at one student's account)
 * while everyone else's codes were refused. Now an IPv6 requester is
 * counted by its /48: the whole site gets one requester's codes and tries.
 */
const OWNER = "203.0.113.10";
const WRONG = "000000";
const ROTATIONS = 60;

let apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.map((a) => a.close()));
  apps = [];
});

type Via = "rest" | "trpc";
async function call(t: TestApp, via: Via, name: "sendCode" | "verifyCode", payload: object, ip: string) {
  const url =
    via === "rest" ? `/api/auth/${name === "sendCode" ? "send-code" : "verify-code"}` : `/api/trpc/auth.${name}`;
  // Each phone here is new: a check carries the sign-up's consents, as the sign-up form sends them.
  const sent = name === "verifyCode" ? { ...payload, consents: SIGNUP_CONSENTS } : payload;
  const res = await t.app.inject({ method: "POST", url, payload: sent, remoteAddress: ip });
  const body = res.json() as { codeRequestId?: string; result?: { data?: { codeRequestId?: string } } };
  return {
    status: res.statusCode,
    codeRequestId: via === "rest" ? body.codeRequestId : body.result?.data?.codeRequestId,
  };
}

describe("addresses rotated inside one IPv6 site are one requester", () => {
  for (const via of ["rest", "trpc"] as const) {
    it(`${ROTATIONS} /64s of one /48 get one requester's codes and tries, and the owner still signs in (${via})`, async () => {
      const clock = testClock("2026-11-27T12:00:00Z");
      let next = 100_000;
      const t = await createTestApp({ now: clock.now, generateCode: () => String(++next) });
      apps.push(t);
      const phone = testPhone();

      let texts = 0;
      let guesses = 0;
      for (let n = 0; n < ROTATIONS; n++) {
        // A new /64 for every request, all in 2001:db8:77::/48; the attacker waits out the 30 s between sends.
        const ip = `2001:db8:77:${n.toString(16)}::1`;
        const sent = await call(t, via, "sendCode", { phone }, ip);
        clock.advance(31_000);
        if (sent.status !== 200) continue;
        texts += 1;
        for (let i = 0; i < AUTH_CODE.maxAttempts; i++) {
          const guess = await call(t, via, "verifyCode", { phone, code: WRONG, codeRequestId: sent.codeRequestId }, ip);
          if (guess.status === 400) guesses += 1;
          clock.advance(1_000);
        }
      }
      // One requester: five codes an hour (the 60 sends took 31 minutes), its tries slowed past the third.
      expect(texts).toBeLessThanOrEqual(AUTH_CODE.maxSendsPerHour);
      expect(guesses).toBeLessThanOrEqual(AUTH_CODE.maxSendsPerHour * AUTH_CODE.maxAttempts);
      const stored = await t.deps.db.select().from(authCodes).where(eq(authCodes.phone, phone));
      expect(new Set(stored.map((row) => row.requesterHash)).size).toBe(1);

      // The owner, on a network of their own, gets a code and signs in.
      const mine = await call(t, via, "sendCode", { phone }, OWNER);
      expect(mine.status).toBe(200);
      const code = await latestCode(t.app, phone);
      const verified = await call(t, via, "verifyCode", { phone, code, codeRequestId: mine.codeRequestId }, OWNER);
      expect(verified.status).toBe(200);
    });
  }

  it("other /48s are other requesters (a phone's owner on another site is not refused)", async () => {
    const clock = testClock("2026-11-27T12:00:00Z");
    const t = await createTestApp({ now: clock.now });
    apps.push(t);
    const phone = testPhone();
    expect((await call(t, "rest", "sendCode", { phone }, "2001:db8:77:1::1")).status).toBe(200);
    expect((await call(t, "rest", "sendCode", { phone }, "2001:db8:78:1::1")).status).toBe(200);
    // Inside the first /48, 30 s have not passed for its requester.
    expect((await call(t, "rest", "sendCode", { phone }, "2001:db8:77:2::1")).status).toBe(429);
  });
});

describe("siteKey", () => {
  it.each([
    ["2001:db8:77:1::1", "2001:db8:77::/48"],
    ["2001:0db8:0077:ffff:1:2:3:4", "2001:db8:77::/48"],
    ["::1", "0:0:0::/48"],
    ["203.0.113.10", "203.0.113.10"],
    ["::ffff:203.0.113.10", "203.0.113.10"],
  ])("counts %s as %s", (ip, site) => {
    expect(siteKey(addressKey(ip))).toBe(site);
  });
});

import { SCHOOL_EMAIL_CODE, SCHOOL_EMAIL_MESSAGES } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { VIAS, schoolEmailRequests } from "../test/school-email";
import { testClock } from "../test/sms";
import { campus, sessionFor } from "../test/voters";

/**
 * A hostile student against "classmates can no longer lock the owner's address"
 * (modules/school-email/codes.ts), the order school-email-attacks.test.ts does
 * not try: the owner asks FIRST, then a crowd of classmates asks for her
 * address and keeps asking as their codes expire. Holds: her live code still
 * proves; a resend waits at most until it expires (never an hour); once it
 * has, she gets a new one at once however many keep asking.
 */
const clock = testClock("2026-03-02T15:00:00Z");
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
});
afterAll(() => t?.close());
const { sendCode, verify, codeIn } = schoolEmailRequests(() => t.app);
let n = 0;

describe("the owner asked first", () => {
  it.each(VIAS)(
    "a crowd of classmates delays her resend by at most her code's life and never stops her proving (%s)",
    async (via) => {
      const c = await campus(t, { member: false });
      const address = `owner${++n}@${c.school.domain.toLowerCase()}`;
      const rivals = [];
      for (let k = 0; k < 6; k++) {
        const s = await c.student({ member: false });
        rivals.push({ authorization: `Bearer ${(await sessionFor(t, s.phone)).token}` });
      }
      expect((await sendCode(via, c.headers, address)).status).toBe(200);
      const first = await codeIn(address);
      for (const h of rivals) {
        clock.advance(5_000);
        expect((await sendCode(via, h, address)).status).toBe(200);
      }
      clock.advance(SCHOOL_EMAIL_CODE.resendIntervalMs);
      const resend = await sendCode(via, c.headers, address);
      expect(resend.status).toBe(429);
      expect([9, 10].map(SCHOOL_EMAIL_MESSAGES.tooManyForAddress)).toContain(resend.message);
      // Her code expires; the crowd asks again (their own codes expired too) just before she does.
      clock.advance(SCHOOL_EMAIL_CODE.ttlMs);
      for (const h of rivals) await sendCode(via, h, address);
      clock.advance(1_000);
      const fresh = await sendCode(via, c.headers, address);
      expect(fresh.status, fresh.raw).toBe(200);
      // Hers is the newest e-mail in her inbox: it proves.
      const second = await codeIn(address);
      expect(second).not.toBe(first);
      expect((await verify(via, c.headers, address, second)).status).toBe(200);
    },
  );
});

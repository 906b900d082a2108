import { randomBytes } from "node:crypto";
import { AUTH_CODE, SIGN_IN_MESSAGES, VALIDATION } from "@quad/contracts";
import { smsOutbox } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer, latestCode, signIn, SIGNUP_CONSENTS, testPhone } from "../../test/auth";
import { testClock } from "../../test/sms";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const post = (url: string, payload: unknown, ip = "10.1.1.1") =>
  t.app.inject({ method: "POST", url, payload: payload as object, remoteAddress: ip });

describe("POST /api/auth/send-code", () => {
  it("sends a code readable in the dev outbox", async () => {
    const phone = testPhone();
    const res = await post("/api/auth/send-code", { phone });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      sent: true,
      retryAfterSeconds: 30,
      codeRequestId: expect.stringMatching(/^[\w-]{43}$/),
    });
    const code = await latestCode(t.app, phone);
    expect(code).toMatch(/^\d{6}$/);
    // The last line binds the code to PUBLIC_URL's host for WebOTP.
    const outbox = await t.app.inject({ method: "GET", url: `/api/dev/sms-outbox?phone=${encodeURIComponent(phone)}` });
    expect(outbox.json().messages[0].body.split("\n").at(-1)).toBe(
      `@${new URL(t.deps.config.PUBLIC_URL!).hostname} #${code}`,
    );
  });

  it.each([
    [{}, "phone"],
    [{ phone: 5555550123 }, "phone"],
    [{ phone: "(555) 555-0123" }, "phone"],
    [{ phone: "+445555550123" }, "phone"],
    [{ phone: "+12025550123", extra: true }, "_"],
  ])("answers %o with 400 and field errors", async (payload, field) => {
    const res = await post("/api/auth/send-code", payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("BAD_REQUEST");
    expect(Object.keys(res.json().fieldErrors)).toContain(field);
  });

  // +1 is shared by Canada and the Caribbean: +1 876 (Jamaica) and +1 268 (Antigua)
  // are premium destinations for SMS pumping; +1 000… and +1 111… do not exist.
  it.each([
    "+18765551234",
    "+12685551234",
    "+10005551234",
    "+11115551234",
    "+15555550123",
    "+19005551234",
    "+16045551234",
  ])("refuses %s, not a valid US number, over REST and tRPC, and texts nothing", async (phone) => {
    const rest = await post("/api/auth/send-code", { phone });
    expect(rest.statusCode).toBe(400);
    expect(rest.json()).toMatchObject({ message: VALIDATION.usPhone, fieldErrors: { phone: [VALIDATION.usPhone] } });
    const trpc = await post("/api/trpc/auth.sendCode", { phone });
    expect(trpc.statusCode).toBe(400);
    expect(trpc.json().error.data.fieldErrors).toEqual({ phone: [VALIDATION.usPhone] });
    expect(await t.deps.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone))).toEqual([]);
  });

  it("answers a second send within 30 s with 429 and Retry-After", async () => {
    const phone = testPhone();
    await post("/api/auth/send-code", { phone });
    const res = await post("/api/auth/send-code", { phone });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(res.json().message).toMatch(/^Please wait \d+ seconds before requesting another code\.$/);
  });
});

describe("POST /api/auth/verify-code", () => {
  it("answers a token pair for the right code", async () => {
    const tokens = await signIn(t.app, testPhone());
    expect(tokens).toMatchObject({ token: expect.any(String), refreshToken: expect.any(String) });
    expect(Date.parse(tokens.expiresAt)).toBeGreaterThan(Date.now());
  });

  it("answers 400 'Invalid verification code' for a wrong one", async () => {
    const phone = testPhone();
    const { codeRequestId } = (await post("/api/auth/send-code", { phone })).json();
    const code = await latestCode(t.app, phone);
    const wrong = code === "000000" ? "111111" : "000000";
    const res = await post("/api/auth/verify-code", { phone, code: wrong, codeRequestId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: "Invalid verification code", code: "BAD_REQUEST" });
  });

  it("answers malformed codes with the contracts message", async () => {
    const res = await post("/api/auth/verify-code", { phone: testPhone(), code: "12ab" });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors.code).toEqual(["Enter the 6-digit code we sent you"]);
  });
});

describe("a campus behind one address", () => {
  it(
    "lets 500 students sign in from one address within the hour, over REST and tRPC",
    { timeout: 120_000 },
    async () => {
      const campus = await createTestApp({ generateCode: () => "246810" });
      try {
        const failures: string[] = [];
        for (let i = 0; i < 500; i++) {
          const phone = `+1617${String(2000000 + i)}`;
          const via = i % 2 === 0 ? "/api/auth" : "/api/trpc/auth.";
          const call = (name: string, payload: object) =>
            campus.app.inject({
              method: "POST",
              url:
                via === "/api/auth" ? `/api/auth/${name}` : `${via}${name === "send-code" ? "sendCode" : "verifyCode"}`,
              payload,
              remoteAddress: "192.0.2.10",
            });
          const sent = await call("send-code", { phone });
          const codeRequestId = sent.json().codeRequestId ?? sent.json().result?.data.codeRequestId;
          const verified =
            sent.statusCode === 200
              ? await call("verify-code", { phone, code: "246810", codeRequestId, consents: SIGNUP_CONSENTS })
              : sent;
          if (verified.statusCode !== 200) failures.push(`student ${i + 1}: ${verified.statusCode} ${verified.body}`);
        }
        expect(failures).toEqual([]);
      } finally {
        await campus.close();
      }
    },
  );
});

describe("wrong codes per phone per day", () => {
  it("never lock the phone: after 15 wrong codes from elsewhere, the owner's code takes one try, over REST and tRPC", async () => {
    const clock = testClock("2026-11-23T12:00:00Z");
    const app = await createTestApp({ now: clock.now, generateCode: () => "135790" });
    try {
      const phone = testPhone();
      const call = (url: string, payload: object, ip: string) =>
        app.app.inject({ method: "POST", url, payload, remoteAddress: ip });
      // Three requesters, five wrong codes each (each code's tries), a minute apart.
      for (let r = 0; r < 3; r++) {
        const ip = `10.2.2.${r + 1}`;
        const { codeRequestId } = (await call("/api/auth/send-code", { phone }, ip)).json();
        for (let i = 0; i < AUTH_CODE.maxAttempts; i++) {
          expect((await call("/api/auth/verify-code", { phone, code: "000000", codeRequestId }, ip)).statusCode).toBe(
            400,
          );
          clock.advance(60_000);
        }
      }
      // A requester that guessed wrong gets no more codes for the phone today; others do.
      const again = await call("/api/trpc/auth.sendCode", { phone }, "10.2.2.1");
      expect(again.statusCode).toBe(429);
      expect(again.json().error.message).toBe(SIGN_IN_MESSAGES.tooManyWrongFromHere);
      expect(Number(again.headers["retry-after"])).toBeGreaterThan(23 * 60 * 60);

      for (const [send, verify] of [
        ["/api/auth/send-code", "/api/auth/verify-code"],
        ["/api/trpc/auth.sendCode", "/api/trpc/auth.verifyCode"],
      ] as const) {
        const owner = send.includes("trpc") ? "10.3.3.2" : "10.3.3.1";
        const sent = await call(send, { phone }, owner);
        expect(sent.statusCode).toBe(200);
        const codeRequestId = sent.json().codeRequestId ?? sent.json().result.data.codeRequestId;
        // One try per code now: a wrong one ends the code.
        const typo = await call(verify, { phone, code: "000001", codeRequestId }, owner);
        expect(typo.statusCode).toBe(400);
        expect(typo.json().message ?? typo.json().error.message).toBe(SIGN_IN_MESSAGES.tooManyAttempts);
        clock.advance(AUTH_CODE.resendIntervalMs);
        const resent = await call(send, { phone }, owner);
        const retry = resent.json().codeRequestId ?? resent.json().result.data.codeRequestId;
        const signUp = { phone, code: "135790", codeRequestId: retry, consents: SIGNUP_CONSENTS };
        expect((await call(verify, signUp, owner)).statusCode).toBe(200);
      }
    } finally {
      await app.close();
    }
  });
});

describe("the hourly SMS budget", () => {
  it("answers 429 with the budget's message once the app's hourly texts are spent, REST and tRPC", async () => {
    const app = await createTestApp({ env: { SMS_HOURLY_BUDGET: "2" } });
    try {
      const send = (url: string, i: number) =>
        app.app.inject({
          method: "POST",
          url,
          payload: { phone: `+1202777${String(1000 + i)}` },
          remoteAddress: `10.3.3.${i}`,
        });
      expect((await send("/api/auth/send-code", 1)).statusCode).toBe(200);
      expect((await send("/api/trpc/auth.sendCode", 2)).statusCode).toBe(200);
      const rest = await send("/api/auth/send-code", 3);
      expect(rest.statusCode).toBe(429);
      expect(rest.json()).toMatchObject({ code: "TOO_MANY_REQUESTS", message: SIGN_IN_MESSAGES.smsBudgetSpent });
      expect(Number(rest.headers["retry-after"])).toBeGreaterThan(0);
      const trpc = await send("/api/trpc/auth.sendCode", 4);
      expect(trpc.statusCode).toBe(429);
      expect(trpc.json().error.message).toBe(SIGN_IN_MESSAGES.smsBudgetSpent);
    } finally {
      await app.close();
    }
  });
});

describe("consent records", () => {
  it("stores SMS and terms consent with their text versions when the code is verified", async () => {
    const { consents } = await import("@quad/db/schema");
    const { eq } = await import("drizzle-orm");
    const phone = testPhone();
    const { codeRequestId } = (await post("/api/auth/send-code", { phone })).json();
    const code = await latestCode(t.app, phone);
    const res = await post("/api/auth/verify-code", {
      phone,
      code,
      codeRequestId,
      consents: { sms: true, terms: true },
    });
    expect(res.statusCode).toBe(200);
    const rows = await t.deps.db.select().from(consents).where(eq(consents.phone, phone));
    expect(rows.map((r) => [r.kind, r.granted, r.textVersion, r.source]).sort()).toEqual([
      ["sms", true, "sms-2025-04-08", "signup"],
      ["terms", true, "terms-2025-04-08", "signup"],
    ]);
  });

  it("refuses consents that were not given", async () => {
    const res = await post("/api/auth/verify-code", {
      phone: testPhone(),
      code: "123456",
      codeRequestId: "A".repeat(43),
      consents: { sms: false, terms: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors["consents.sms"]).toEqual(["SMS consent is required to sign up"]);
  });
});

describe("refresh and logout", () => {
  it("rotates the pair and refuses the old refresh token", async () => {
    const tokens = await signIn(t.app, testPhone());
    const rotated = await post("/api/auth/refresh", { refreshToken: tokens.refreshToken });
    expect(rotated.statusCode).toBe(200);
    const reused = await post("/api/auth/refresh", { refreshToken: tokens.refreshToken });
    expect(reused.statusCode).toBe(401);
    // Reuse revoked the family: the rotated token is dead too.
    const after = await post("/api/auth/refresh", { refreshToken: rotated.json().refreshToken });
    expect(after.statusCode).toBe(401);
  });

  it("logout revokes the refresh token", async () => {
    const tokens = await signIn(t.app, testPhone());
    expect((await post("/api/auth/logout", { refreshToken: tokens.refreshToken })).json()).toEqual({ ok: true });
    expect((await post("/api/auth/refresh", { refreshToken: tokens.refreshToken })).statusCode).toBe(401);
  });
});

describe("bearer tokens", () => {
  it.each([
    ["no header", {}],
    ["garbage", { authorization: "Bearer garbage" }],
    ["wrong scheme", { authorization: "Basic abc" }],
    [
      "forged signature",
      { authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIrMTU1NTU1NTAxMjMiLCJzaWQiOiJ4In0.c2lnbmF0dXJl" },
    ],
  ])("%s → 401 on a session route", async (_name, headers) => {
    const res = await t.app.inject({ method: "GET", url: "/api/users/me", headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe("UNAUTHORIZED");
  });

  it("works over tRPC too", async () => {
    const tokens = await signIn(t.app, testPhone());
    const res = await t.app.inject({ method: "GET", url: "/api/trpc/users.me", headers: bearer(tokens) });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe("No such user exists!");
  });
});

describe("development outbox", () => {
  it("is not served in production", async () => {
    const prod = await createTestApp({
      env: {
        NODE_ENV: "production",
        JWT_SECRET: randomBytes(48).toString("base64"),
        SMS_PROVIDER: "twilio",
        TWILIO_ACCOUNT_SID: "AC123",
        TWILIO_AUTH_TOKEN: "token",
        TWILIO_FROM: "+15550000000",
        PAYMENT_PROVIDER: "stripe",
        STRIPE_SECRET_KEY: "sk_test_x",
        STRIPE_WEBHOOK_SECRET: "whsec_x",
        STRIPE_PUBLISHABLE_KEY: "pk_test_x",
        EMAIL_PROVIDER: "smtp",
        SMTP_URL: "smtp://127.0.0.1:2525",
      },
    });
    try {
      const res = await prod.app.inject({ method: "GET", url: "/api/dev/sms-outbox" });
      expect(res.statusCode).toBe(404);
      const trpc = await prod.app.inject({ method: "GET", url: "/api/trpc/dev.smsOutbox" });
      expect(trpc.statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});

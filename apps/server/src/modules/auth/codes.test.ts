import { AUTH_CODE, SIGN_IN_CODES_PER_ADDRESS, SIGN_IN_MESSAGES } from "@quad/contracts";
import { authCodes } from "@quad/db/schema";
import { createTestDatabase } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppError } from "../../errors";
import { createMemoryRateLimiter } from "../../rate-limit/limiter";
import type { SmsMessage } from "../sms/sender";
import { sendCode, verifyCode, type CodeDeps } from "./codes";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let clock: number;
let sent: SmsMessage[];
let deps: CodeDeps;
let phoneCounter = 0;
let phone: string;
let warnings: string[];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());
beforeEach(() => {
  clock = Date.parse("2026-03-01T12:00:00Z");
  sent = [];
  phoneCounter += 1;
  phone = `+1202555${String(phoneCounter).padStart(4, "0")}`;
  warnings = [];
  deps = {
    db: database.db,
    sms: { send: async (message) => void sent.push(message) },
    rateLimiter: createMemoryRateLimiter(() => clock),
    now: () => new Date(clock),
    secret: "secret-secret-secret-secret-secret",
    smsHourlyBudget: 10_000,
    log: { warn: (_details, message) => void warnings.push(message) },
    generateCode: () => "123456",
  };
});

const advance = (ms: number) => (clock += ms);
const expectError = async (promise: Promise<unknown>, code: string, message: string | RegExp) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code });
  expect((error as Error).message).toMatch(message);
};

describe("sending codes", () => {
  it("texts a 6-digit code and stores only its hash", async () => {
    deps.generateCode = undefined;
    await sendCode(deps, phone, "1.1.1.1");
    expect(sent).toHaveLength(1);
    const code = sent[0]!.body.match(/\b(\d{6})\b/)![1]!;
    const [row] = await database.db.select().from(authCodes).where(eq(authCodes.phone, phone));
    expect(row!.codeHash).not.toContain(code);
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(AUTH_CODE.ttlMs);
  });

  it("allows one send per 30 seconds for a phone, saying how long to wait", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    advance(10_000);
    await expectError(sendCode(deps, phone, "2.2.2.2"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooSoon(20));
    advance(20_000);
    await sendCode(deps, phone, "1.1.1.1");
    expect(sent).toHaveLength(2);
  });

  it("allows five sends per hour for a phone", async () => {
    for (let i = 0; i < AUTH_CODE.maxSendsPerHour; i++) {
      await sendCode(deps, phone, "1.1.1.1");
      advance(31_000);
    }
    await expectError(sendCode(deps, phone, "1.1.1.1"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyForPhone);
    advance(60 * 60 * 1000);
    await sendCode(deps, phone, "1.1.1.1");
  });

  it("limits sends from one address across many phones, loosely (a campus shares one)", async () => {
    for (let i = 0; i < 30; i++) await sendCode(deps, `+1202111${String(i).padStart(4, "0")}`, "9.9.9.9");
    // The rest of the hour's allowance, spent without texting (the campus test sends 500 for real).
    for (let i = 30; i < SIGN_IN_CODES_PER_ADDRESS.limit; i++) {
      await deps.rateLimiter.consume(
        "send-code:ip:9.9.9.9",
        SIGN_IN_CODES_PER_ADDRESS.limit,
        SIGN_IN_CODES_PER_ADDRESS.windowMs,
      );
    }
    await expectError(sendCode(deps, "+12022229999", "9.9.9.9"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyFromIp);
    await sendCode(deps, "+12022229999", "8.8.8.8");
  });

  it("holds the 30-second limit under concurrent sends", async () => {
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => sendCode(deps, phone, "1.1.1.1")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });
});

describe("verifying codes", () => {
  it("accepts the right code once", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    await verifyCode(deps, phone, "123456");
    await expectError(verifyCode(deps, phone, "123456"), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
  });

  it("refuses a wrong code", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    await expectError(verifyCode(deps, phone, "654321"), "BAD_REQUEST", "Invalid verification code");
  });

  it("refuses a code for another phone", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    await expectError(verifyCode(deps, "+12025559999", "123456"), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
  });

  it("kills a code after 10 minutes", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    advance(AUTH_CODE.ttlMs);
    await expectError(verifyCode(deps, phone, "123456"), "BAD_REQUEST", SIGN_IN_MESSAGES.expired);
  });

  it("kills a code after 5 wrong tries, even if the sixth is right", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    for (let i = 0; i < AUTH_CODE.maxAttempts - 1; i++) {
      await expectError(verifyCode(deps, phone, "000000"), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    }
    await expectError(verifyCode(deps, phone, "000000"), "BAD_REQUEST", SIGN_IN_MESSAGES.tooManyAttempts);
    await expectError(verifyCode(deps, phone, "123456"), "BAD_REQUEST", SIGN_IN_MESSAGES.tooManyAttempts);
  });

  it("does not let parallel guesses exceed the attempt limit", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    await Promise.allSettled(Array.from({ length: 12 }, () => verifyCode(deps, phone, "000000")));
    const [row] = await database.db.select().from(authCodes).where(eq(authCodes.phone, phone));
    expect(row!.attempts).toBe(AUTH_CODE.maxAttempts);
  });

  it("only the newest code counts", async () => {
    let next = "111111";
    deps.generateCode = () => next;
    await sendCode(deps, phone, "1.1.1.1");
    advance(31_000);
    next = "222222";
    await sendCode(deps, phone, "1.1.1.1");
    await expectError(verifyCode(deps, phone, "111111"), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    await verifyCode(deps, phone, "222222");
  });
});

describe("wrong codes per phone per day", () => {
  const DAY = AUTH_CODE.failureWindowMs;
  /** Sends a fresh code and enters `wrong` wrong ones; answers the last refusal. */
  async function wrongCodes(wrong: number): Promise<unknown> {
    await sendCode(deps, phone, "1.1.1.1");
    let last: unknown = null;
    for (let i = 0; i < wrong; i++)
      last = await verifyCode(deps, phone, "000000").then(
        () => null,
        (e: unknown) => e,
      );
    advance(AUTH_CODE.resendIntervalMs);
    return last;
  }

  it("locks sign-in after 15 wrong codes across codes, refusing even the right code, for a day", async () => {
    // 4 + 4 + 4 wrong codes on three codes, then 3 on a fourth that stays live.
    for (let i = 0; i < 3; i++)
      expect(await wrongCodes(4)).toMatchObject({ code: "BAD_REQUEST", message: SIGN_IN_MESSAGES.invalid });
    await sendCode(deps, phone, "1.1.1.1");
    await expectError(verifyCode(deps, phone, "000000"), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    await expectError(verifyCode(deps, phone, "000000"), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    // The 15th wrong code locks, and says so.
    await expectError(verifyCode(deps, phone, "000000"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.lockedOut(24));
    // The live code is right, but the phone is locked: refused, and its attempt is not taken.
    const right = await verifyCode(deps, phone, "123456").then(
      () => null,
      (e: unknown) => e,
    );
    expect(right).toMatchObject({ code: "TOO_MANY_REQUESTS", message: SIGN_IN_MESSAGES.lockedOut(24) });
    expect((right as AppError).details.retryAfterSeconds).toBeGreaterThan(DAY / 1000 - 60 * 60);
    // No new code either, and nothing texted.
    const texts = sent.length;
    advance(2 * 60 * 60 * 1000);
    await expectError(sendCode(deps, phone, "1.1.1.1"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.lockedOut(22));
    expect(sent).toHaveLength(texts);

    // A day after the first counted code expired, the phone may sign in again.
    advance(DAY);
    await sendCode(deps, phone, "1.1.1.1");
    await verifyCode(deps, phone, "123456");
  });

  it("counts only the last day's wrong codes", async () => {
    for (let i = 0; i < 3; i++) await wrongCodes(4);
    advance(DAY + AUTH_CODE.ttlMs);
    for (let i = 0; i < 3; i++) await wrongCodes(4);
    await sendCode(deps, phone, "1.1.1.1");
    await verifyCode(deps, phone, "123456");
  });

  it("does not let parallel guesses pass the daily cap", async () => {
    for (let i = 0; i < 3; i++) await wrongCodes(4);
    await wrongCodes(2); // 14 wrong so far
    await sendCode(deps, phone, "1.1.1.1");
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => verifyCode(deps, phone, "000000")));
    const messages = results.map((r) => (r.status === "rejected" ? (r.reason as Error).message : "ok"));
    expect(messages.filter((m) => m === SIGN_IN_MESSAGES.lockedOut(24))).toHaveLength(5);
    const rows = await database.db.select().from(authCodes).where(eq(authCodes.phone, phone));
    expect(rows.reduce((sum, row) => sum + row.attempts, 0)).toBe(AUTH_CODE.maxFailuresPerDay);
  });
});

describe("the hourly SMS budget", () => {
  it("refuses codes past the app's hourly budget, texting nothing, and warns once", async () => {
    deps.smsHourlyBudget = 3;
    const phones = Array.from({ length: 5 }, (_, i) => `+1202333${String(phoneCounter * 10 + i).padStart(4, "0")}`);
    for (const p of phones.slice(0, 3)) await sendCode(deps, p, `10.0.0.${p.slice(-2)}`);
    for (const p of phones.slice(3)) {
      const error = await sendCode(deps, p, "10.9.9.9").then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: "TOO_MANY_REQUESTS", message: SIGN_IN_MESSAGES.smsBudgetSpent });
      expect((error as AppError).details.retryAfterSeconds).toBeGreaterThan(0);
    }
    expect(sent.map((m) => m.to)).toEqual(phones.slice(0, 3));
    // A refused send stores no code (it would count against the phone's own limits).
    expect(await database.db.select().from(authCodes).where(eq(authCodes.phone, phones[3]!))).toEqual([]);
    expect(warnings).toEqual(["hourly SMS budget reached: sign-in codes are refused until it resets"]);

    advance(60 * 60 * 1000);
    await sendCode(deps, phones[3]!, "10.9.9.9");
    expect(sent).toHaveLength(4);
  });

  it("counts only texts that go out: a send refused by the phone's own limit spends nothing", async () => {
    deps.smsHourlyBudget = 2;
    await sendCode(deps, phone, "1.1.1.1");
    await expectError(sendCode(deps, phone, "1.1.1.1"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooSoon(30));
    await sendCode(deps, "+12024440001", "1.1.1.1");
    await expectError(sendCode(deps, "+12024440002", "1.1.1.1"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.smsBudgetSpent);
  });
});

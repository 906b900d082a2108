import { createHash } from "node:crypto";
import { AUTH_CODE, SIGN_IN_CODES_PER_ADDRESS, SIGN_IN_MESSAGES } from "@quad/contracts";
import { authCodes } from "@quad/db/schema";
import { createTestDatabase } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../../rate-limit/limiter";
import type { SmsMessage } from "../sms/sender";
import type { AppError } from "../../errors";
import { slowdownMs } from "./code-limits";
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

/** Sends a code to the test's phone from `ip` and answers its request's value. */
const send = async (ip = "1.1.1.1", to = phone) => (await sendCode(deps, to, ip)).codeRequestId;
const DAY = AUTH_CODE.failureWindowMs;

describe("sending codes", () => {
  it("texts a 6-digit code and stores only its hash and the hash of the request's value", async () => {
    deps.generateCode = undefined;
    const { codeRequestId } = await sendCode(deps, phone, "1.1.1.1");
    expect(codeRequestId).toMatch(/^[\w-]{43}$/);
    expect(sent).toHaveLength(1);
    const code = sent[0]!.body.match(/\b(\d{6})\b/)![1]!;
    const [row] = await database.db.select().from(authCodes).where(eq(authCodes.phone, phone));
    expect(row!.codeHash).not.toContain(code);
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.requestHash).toBe(createHash("sha256").update(codeRequestId).digest("hex"));
    expect(JSON.stringify(row)).not.toContain("1.1.1.1");
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(AUTH_CODE.ttlMs);
  });

  it("ends the text with WebOTP's line binding the code to the app's host, so phones offer it to that site only", async () => {
    deps.appHost = "quad.example.edu";
    await sendCode(deps, phone, "1.1.1.1");
    expect(sent[0]!.body.split("\n").at(-1)).toBe("@quad.example.edu #123456");
    expect(sent[0]!.body.startsWith("123456 is your Quad verification code.")).toBe(true);
  });

  it("answers a new request value with every code", async () => {
    const first = await send();
    advance(AUTH_CODE.resendIntervalMs);
    expect(await send()).not.toBe(first);
  });

  it("allows one send per 30 seconds per requester, saying how long to wait; another address is not held up", async () => {
    await send("1.1.1.1");
    advance(10_000);
    await expectError(send("1.1.1.1"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooSoon(20));
    await send("2.2.2.2");
    advance(20_000);
    await send("1.1.1.1");
    expect(sent).toHaveLength(3);
  });

  it("allows five sends an hour and ten a day per requester; another address still gets codes", async () => {
    for (let i = 0; i < AUTH_CODE.maxSendsPerHour; i++) {
      await send();
      advance(31_000);
    }
    await expectError(send(), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyForPhone);
    await send("2.2.2.2");
    advance(60 * 60 * 1000);
    for (let i = 0; i < AUTH_CODE.maxSendsPerDay - AUTH_CODE.maxSendsPerHour; i++) {
      await send();
      advance(31_000);
    }
    await expectError(send(), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyForPhone);
    advance(DAY);
    await send();
  });

  it("sends a phone 50 codes a day from all requesters, and past that still a requester's first", async () => {
    for (let i = 0; i < AUTH_CODE.maxSendsPerPhonePerDay / 5; i++)
      for (let j = 0; j < 5; j++) {
        await send(`10.5.${i}.1`);
        advance(i === AUTH_CODE.maxSendsPerPhonePerDay / 5 - 1 && j === 4 ? 0 : 31_000);
      }
    advance(31_000);
    // Every requester so far is refused now; a new one (the owner on their own network) is not.
    await expectError(send("10.5.0.1"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyForPhone);
    await send("10.6.0.1");
    advance(31_000);
    await expectError(send("10.6.0.1"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyForPhone);
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
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => send()));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(sent).toHaveLength(1);
  });
});

describe("verifying codes", () => {
  it("accepts the right code with its request's value, once", async () => {
    const id = await send();
    await verifyCode(deps, phone, "123456", id);
    await expectError(verifyCode(deps, phone, "123456", id), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
  });

  it("refuses a wrong code", async () => {
    const id = await send();
    await expectError(verifyCode(deps, phone, "654321", id), "BAD_REQUEST", "Invalid verification code");
  });

  it("refuses a request's value for another phone, or one never answered, without taking a try", async () => {
    const id = await send();
    await expectError(verifyCode(deps, "+12025559999", "123456", id), "BAD_REQUEST", SIGN_IN_MESSAGES.unknownRequest);
    await expectError(
      verifyCode(deps, phone, "123456", "x".repeat(43)),
      "BAD_REQUEST",
      SIGN_IN_MESSAGES.unknownRequest,
    );
    const [row] = await database.db.select().from(authCodes).where(eq(authCodes.phone, phone));
    expect(row!.attempts).toBe(0);
    await verifyCode(deps, phone, "123456", id);
  });

  it("kills a code after 10 minutes", async () => {
    const id = await send();
    advance(AUTH_CODE.ttlMs);
    await expectError(verifyCode(deps, phone, "123456", id), "BAD_REQUEST", SIGN_IN_MESSAGES.expired);
  });

  it("kills a code after 5 wrong tries, even if the sixth is right", async () => {
    const id = await send();
    for (let i = 0; i < AUTH_CODE.maxAttempts - 1; i++) {
      await expectError(verifyCode(deps, phone, "000000", id), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
      advance(slowdownMs(i + 1));
    }
    await expectError(verifyCode(deps, phone, "000000", id), "BAD_REQUEST", SIGN_IN_MESSAGES.tooManyAttempts);
    advance(slowdownMs(AUTH_CODE.maxAttempts));
    await expectError(verifyCode(deps, phone, "123456", id), "BAD_REQUEST", SIGN_IN_MESSAGES.tooManyAttempts);
  });

  it("does not let parallel guesses past the slowdown or the tries", async () => {
    const id = await send();
    await Promise.allSettled(Array.from({ length: 12 }, () => verifyCode(deps, phone, "000000", id)));
    const [row] = await database.db.select().from(authCodes).where(eq(authCodes.phone, phone));
    expect(row!.attempts).toBe(AUTH_CODE.slowdown.freeFailures);
  });

  it("checks each code against its own request: another code's value does not fit it", async () => {
    let next = "111111";
    deps.generateCode = () => next;
    const first = await send();
    advance(31_000);
    next = "222222";
    const second = await send();
    await expectError(verifyCode(deps, phone, "111111", second), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    await verifyCode(deps, phone, "222222", second);
    await verifyCode(deps, phone, "111111", first);
  });
});

describe("a requester guessing", () => {
  it("waits nothing for its first three wrong codes, then 2 s doubling per wrong code up to 15 minutes", () => {
    expect([0, 1, 2, 3, 4, 5, 11, 12, 40].map(slowdownMs)).toEqual([
      0, 0, 0, 2_000, 4_000, 8_000, 512_000, 900_000, 900_000,
    ]);
  });

  it("is refused with the wait until it has passed, whatever address it checks from; other requesters are not", async () => {
    const id = await send("6.6.6.6");
    for (let i = 0; i < 3; i++)
      await expectError(verifyCode(deps, phone, "000000", id), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    await expectError(verifyCode(deps, phone, "000000", id), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.slowDown(2));
    advance(1_000);
    await expectError(verifyCode(deps, phone, "123456", id), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.slowDown(1));
    // The wait counts across the requester's codes for this phone.
    advance(AUTH_CODE.resendIntervalMs);
    const again = await send("6.6.6.6");
    await expectError(verifyCode(deps, phone, "000000", again), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    await expectError(verifyCode(deps, phone, "123456", again), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.slowDown(4));
    // The owner, elsewhere, is not slowed.
    await verifyCode(deps, phone, "123456", await send("7.7.7.7"));
  });
});

describe("wrong codes per phone per day", () => {
  /** A new requester's code with `wrong` wrong entries, each after the slowdown's wait. */
  async function wrongCodes(ip: string, wrong: number) {
    const id = await send(ip);
    for (let i = 0; i < wrong; i++) {
      await expectError(verifyCode(deps, phone, "000000", id), "BAD_REQUEST", /./);
      advance(slowdownMs(i + 1));
    }
    return id;
  }

  it("past 15 in a day, each code allows one try; requesters with 3 wrong codes get no more codes, the owner does", async () => {
    for (let r = 0; r < 3; r++) await wrongCodes(`10.7.0.${r}`, 5);
    await expectError(send("10.7.0.0"), "TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyWrongFromHere);
    // A newcomer (the owner) gets a code and may enter it once.
    const typo = await send("10.8.0.1");
    await expectError(verifyCode(deps, phone, "000001", typo), "BAD_REQUEST", SIGN_IN_MESSAGES.tooManyAttempts);
    advance(AUTH_CODE.resendIntervalMs);
    await verifyCode(deps, phone, "123456", await send("10.8.0.1"));
  });

  it("lets a code whose tries were taken in part keep none past the line", async () => {
    for (let r = 0; r < 2; r++) await wrongCodes(`10.9.0.${r}`, 5);
    const live = await wrongCodes("10.9.0.2", 4); // 14 wrong so far
    await wrongCodes("10.9.0.3", 1); // 15
    await expectError(verifyCode(deps, phone, "123456", live), "BAD_REQUEST", SIGN_IN_MESSAGES.tooManyAttempts);
  });

  it("counts only the last day's", async () => {
    for (let r = 0; r < 3; r++) await wrongCodes(`10.10.0.${r}`, 5);
    advance(DAY + AUTH_CODE.ttlMs);
    const id = await send("10.10.0.0");
    await expectError(verifyCode(deps, phone, "000000", id), "BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    await verifyCode(deps, phone, "123456", id);
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

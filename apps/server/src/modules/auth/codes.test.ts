import { AUTH_CODE } from "@quad/contracts";
import { authCodes } from "@quad/db/schema";
import { createTestDatabase } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../../rate-limit/limiter";
import type { SmsMessage } from "../sms/sender";
import { CODE_MESSAGES, SEND_CODE_PER_IP, sendCode, verifyCode, type CodeDeps } from "./codes";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let clock: number;
let sent: SmsMessage[];
let deps: CodeDeps;
let phoneCounter = 0;
let phone: string;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());
beforeEach(() => {
  clock = Date.parse("2026-03-01T12:00:00Z");
  sent = [];
  phoneCounter += 1;
  phone = `+1555000${String(phoneCounter).padStart(4, "0")}`;
  deps = {
    db: database.db,
    sms: { send: async (message) => void sent.push(message) },
    rateLimiter: createMemoryRateLimiter(() => clock),
    now: () => new Date(clock),
    secret: "secret-secret-secret-secret-secret",
    generateCode: () => "123456",
  };
});

const advance = (ms: number) => (clock += ms);
const expectError = async (promise: Promise<unknown>, code: string, message: string | RegExp) => {
  const error = await promise.then(() => null, (e: unknown) => e);
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
    await expectError(sendCode(deps, phone, "2.2.2.2"), "TOO_MANY_REQUESTS", CODE_MESSAGES.tooSoon(20));
    advance(20_000);
    await sendCode(deps, phone, "1.1.1.1");
    expect(sent).toHaveLength(2);
  });

  it("allows five sends per hour for a phone", async () => {
    for (let i = 0; i < AUTH_CODE.maxSendsPerHour; i++) {
      await sendCode(deps, phone, "1.1.1.1");
      advance(31_000);
    }
    await expectError(sendCode(deps, phone, "1.1.1.1"), "TOO_MANY_REQUESTS", CODE_MESSAGES.tooManyForPhone);
    advance(60 * 60 * 1000);
    await sendCode(deps, phone, "1.1.1.1");
  });

  it("limits sends from one address across many phones", async () => {
    for (let i = 0; i < SEND_CODE_PER_IP.limit; i++) await sendCode(deps, `+1555111${String(i).padStart(4, "0")}`, "9.9.9.9");
    await expectError(sendCode(deps, "+15552229999", "9.9.9.9"), "TOO_MANY_REQUESTS", CODE_MESSAGES.tooManyFromIp);
    await sendCode(deps, "+15552229999", "8.8.8.8");
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
    await expectError(verifyCode(deps, phone, "123456"), "BAD_REQUEST", CODE_MESSAGES.invalid);
  });

  it("refuses a wrong code", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    await expectError(verifyCode(deps, phone, "654321"), "BAD_REQUEST", "Invalid verification code");
  });

  it("refuses a code for another phone", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    await expectError(verifyCode(deps, "+15550009999", "123456"), "BAD_REQUEST", CODE_MESSAGES.invalid);
  });

  it("kills a code after 10 minutes", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    advance(AUTH_CODE.ttlMs);
    await expectError(verifyCode(deps, phone, "123456"), "BAD_REQUEST", CODE_MESSAGES.expired);
  });

  it("kills a code after 5 wrong tries, even if the sixth is right", async () => {
    await sendCode(deps, phone, "1.1.1.1");
    for (let i = 0; i < AUTH_CODE.maxAttempts - 1; i++) {
      await expectError(verifyCode(deps, phone, "000000"), "BAD_REQUEST", CODE_MESSAGES.invalid);
    }
    await expectError(verifyCode(deps, phone, "000000"), "BAD_REQUEST", CODE_MESSAGES.tooManyAttempts);
    await expectError(verifyCode(deps, phone, "123456"), "BAD_REQUEST", CODE_MESSAGES.tooManyAttempts);
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
    await expectError(verifyCode(deps, phone, "111111"), "BAD_REQUEST", CODE_MESSAGES.invalid);
    await verifyCode(deps, phone, "222222");
  });
});

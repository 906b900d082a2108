import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { AUTH_CODE, TOASTS } from "@quad/contracts";
import type { Database } from "@quad/db";
import { authCodes } from "@quad/db/schema";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { AppError } from "../../errors";
import type { RateLimiter } from "../../rate-limit/limiter";
import type { SmsSender } from "../sms/sender";

export interface CodeDeps {
  db: Database;
  sms: SmsSender;
  rateLimiter: RateLimiter;
  now: () => Date;
  /** Keys the code hashes, so a leaked table does not reveal codes. */
  secret: string;
  /** Replaceable in tests; six random digits otherwise. */
  generateCode?: () => string;
}

/** Sends from one address are limited too: one person can script many phones. */
export const SEND_CODE_PER_IP = { limit: 20, windowMs: 60 * 60 * 1000 };

export const CODE_MESSAGES = {
  tooSoon: (seconds: number) => `Please wait ${seconds} seconds before requesting another code.`,
  tooManyForPhone: "Too many codes were requested for this number. Please try again later.",
  tooManyFromIp: "Too many codes were requested from your network. Please try again later.",
  invalid: TOASTS.invalidCode,
  expired: "This code has expired. Please request a new one.",
  tooManyAttempts: "Too many wrong attempts. Please request a new code.",
} as const;

function hashCode(secret: string, phone: string, code: string): string {
  return createHmac("sha256", secret).update(`${phone}:${code}`).digest("hex");
}

const sixDigits = () => String(randomInt(0, 10 ** AUTH_CODE.digits)).padStart(AUTH_CODE.digits, "0");

/**
 * Sends a sign-in code. At most one per 30 s and five per hour for a phone,
 * counted from stored codes under a per-phone lock so concurrent requests
 * and several server processes agree; plus a per-IP limit.
 */
export async function sendCode(deps: CodeDeps, phone: string, ip: string): Promise<{ retryAfterSeconds: number }> {
  const ipDecision = await deps.rateLimiter.consume(`send-code:ip:${ip}`, SEND_CODE_PER_IP.limit, SEND_CODE_PER_IP.windowMs);
  if (!ipDecision.allowed) {
    throw new AppError("TOO_MANY_REQUESTS", CODE_MESSAGES.tooManyFromIp, {
      retryAfterSeconds: Math.ceil(ipDecision.retryAfterMs / 1000),
    });
  }
  const code = (deps.generateCode ?? sixDigits)();
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"auth-code:" + phone}))`);
    const hourAgo = new Date(now.getTime() - 60 * 60 * 1000);
    const recent = await tx
      .select({ createdAt: authCodes.createdAt })
      .from(authCodes)
      .where(and(eq(authCodes.phone, phone), gt(authCodes.createdAt, hourAgo)))
      .orderBy(desc(authCodes.createdAt));
    const latest = recent[0]?.createdAt;
    if (latest && now.getTime() - latest.getTime() < AUTH_CODE.resendIntervalMs) {
      const wait = Math.ceil((AUTH_CODE.resendIntervalMs - (now.getTime() - latest.getTime())) / 1000);
      throw new AppError("TOO_MANY_REQUESTS", CODE_MESSAGES.tooSoon(wait), { retryAfterSeconds: wait });
    }
    if (recent.length >= AUTH_CODE.maxSendsPerHour) {
      const oldest = recent[recent.length - 1]!.createdAt;
      const wait = Math.ceil((oldest.getTime() + 60 * 60 * 1000 - now.getTime()) / 1000);
      throw new AppError("TOO_MANY_REQUESTS", CODE_MESSAGES.tooManyForPhone, { retryAfterSeconds: wait });
    }
    await tx.insert(authCodes).values({
      phone,
      codeHash: hashCode(deps.secret, phone, code),
      createdAt: now,
      expiresAt: new Date(now.getTime() + AUTH_CODE.ttlMs),
    });
  });
  await deps.sms.send({
    to: phone,
    kind: "code",
    body: `${code} is your Quad verification code. It expires in 10 minutes. Never share it with anyone.`,
  });
  return { retryAfterSeconds: AUTH_CODE.resendIntervalMs / 1000 };
}

/**
 * Checks a code against the phone's latest live code. Each check first takes
 * one of the five attempts with a conditional update, so parallel guesses
 * cannot exceed the limit; a match then consumes the code once.
 */
export async function verifyCode(deps: CodeDeps, phone: string, code: string): Promise<void> {
  const now = deps.now();
  const [latest] = await deps.db
    .select()
    .from(authCodes)
    .where(and(eq(authCodes.phone, phone), isNull(authCodes.consumedAt)))
    .orderBy(desc(authCodes.createdAt))
    .limit(1);
  if (!latest) throw new AppError("BAD_REQUEST", CODE_MESSAGES.invalid);
  if (latest.expiresAt <= now) throw new AppError("BAD_REQUEST", CODE_MESSAGES.expired);

  const [attempt] = await deps.db
    .update(authCodes)
    .set({ attempts: sql`${authCodes.attempts} + 1` })
    .where(and(eq(authCodes.id, latest.id), isNull(authCodes.consumedAt), lt(authCodes.attempts, AUTH_CODE.maxAttempts)))
    .returning({ attempts: authCodes.attempts });
  if (!attempt) throw new AppError("BAD_REQUEST", CODE_MESSAGES.tooManyAttempts);

  const expected = Buffer.from(latest.codeHash, "hex");
  const given = Buffer.from(hashCode(deps.secret, phone, code), "hex");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError(
      "BAD_REQUEST",
      attempt.attempts >= AUTH_CODE.maxAttempts ? CODE_MESSAGES.tooManyAttempts : CODE_MESSAGES.invalid,
    );
  }
  const [consumed] = await deps.db
    .update(authCodes)
    .set({ consumedAt: now })
    .where(and(eq(authCodes.id, latest.id), isNull(authCodes.consumedAt)))
    .returning({ id: authCodes.id });
  if (!consumed) throw new AppError("BAD_REQUEST", CODE_MESSAGES.invalid);
}

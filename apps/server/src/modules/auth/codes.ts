import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { AUTH_CODE, SIGN_IN_CODES_PER_ADDRESS, SIGN_IN_MESSAGES } from "@quad/contracts";
import type { Database, Transaction } from "@quad/db";
import { authCodes } from "@quad/db/schema";
import { and, asc, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { AppError } from "../../errors";
import type { RateLimiter } from "../../rate-limit/limiter";
import { spendSmsBudget, type BudgetLog } from "../sms/budget";
import type { SmsSender } from "../sms/sender";

export interface CodeDeps {
  db: Database;
  sms: SmsSender;
  rateLimiter: RateLimiter;
  now: () => Date;
  /** Keys the code hashes, so a leaked table does not reveal codes. */
  secret: string;
  /** Sign-in texts the whole app may send in an hour (SMS_HOURLY_BUDGET). */
  smsHourlyBudget: number;
  log: BudgetLog;
  /** Replaceable in tests; six random digits otherwise. */
  generateCode?: () => string;
}

function hashCode(secret: string, phone: string, code: string): string {
  return createHmac("sha256", secret).update(`${phone}:${code}`).digest("hex");
}

const sixDigits = () => String(randomInt(0, 10 ** AUTH_CODE.digits)).padStart(AUTH_CODE.digits, "0");

/** Sends and checks of one phone take turns, in every server process. */
async function lockPhone(tx: Transaction, phone: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"auth-code:" + phone}))`);
}

/**
 * When the phone's sign-in lock lifts, or null when it is not locked. Wrong
 * codes are counted from the stored codes (attempts, less the one that
 * matched) sent in the last day, each dated by its code (it was entered
 * within the code's 10 minutes). The purge keeps codes that long.
 */
async function lockedUntil(tx: Transaction, phone: string, now: Date): Promise<Date | null> {
  const rows = await tx
    .select({
      createdAt: authCodes.createdAt,
      failures: sql<number>`(${authCodes.attempts} - case when ${authCodes.consumedAt} is null then 0 else 1 end)::int`,
    })
    .from(authCodes)
    .where(
      and(eq(authCodes.phone, phone), gt(authCodes.createdAt, new Date(now.getTime() - AUTH_CODE.failureWindowMs))),
    )
    .orderBy(asc(authCodes.createdAt));
  return lockLiftsAt(rows, AUTH_CODE.maxFailuresPerDay, AUTH_CODE.failureWindowMs);
}

/**
 * Given the window's codes oldest first with their wrong guesses: when the
 * lock lifts (enough of the oldest failures leave the window), or null when
 * fewer than `maxFailures` were made.
 */
export function lockLiftsAt(
  rows: readonly { createdAt: Date; failures: number }[],
  maxFailures: number,
  windowMs: number,
): Date | null {
  let failures = rows.reduce((sum, row) => sum + row.failures, 0);
  for (const row of rows) {
    if (failures < maxFailures) break;
    failures -= row.failures;
    if (failures < maxFailures) return new Date(row.createdAt.getTime() + windowMs);
  }
  return null;
}

function lockedOut(until: Date, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new AppError("TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.lockedOut(Math.ceil(seconds / 3600)), {
    retryAfterSeconds: seconds,
  });
}

/**
 * Sends a sign-in code. Per address (loosely: a campus shares one), then
 * under a per-phone lock so concurrent requests and several server
 * processes agree: not while the phone is locked after wrong codes, at most
 * one per 30 s and five per hour, counted from stored codes; and last from
 * the app's hourly SMS budget, so only a text that will go out spends it.
 */
export async function sendCode(deps: CodeDeps, phone: string, ip: string): Promise<{ retryAfterSeconds: number }> {
  const perAddress = SIGN_IN_CODES_PER_ADDRESS;
  const ipDecision = await deps.rateLimiter.consume(`send-code:ip:${ip}`, perAddress.limit, perAddress.windowMs);
  if (!ipDecision.allowed) {
    throw new AppError("TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyFromIp, {
      retryAfterSeconds: Math.ceil(ipDecision.retryAfterMs / 1000),
    });
  }
  const code = (deps.generateCode ?? sixDigits)();
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    await lockPhone(tx, phone);
    const locked = await lockedUntil(tx, phone, now);
    if (locked) throw lockedOut(locked, now);
    const hourAgo = new Date(now.getTime() - 60 * 60 * 1000);
    const recent = await tx
      .select({ createdAt: authCodes.createdAt })
      .from(authCodes)
      .where(and(eq(authCodes.phone, phone), gt(authCodes.createdAt, hourAgo)))
      .orderBy(desc(authCodes.createdAt));
    const latest = recent[0]?.createdAt;
    if (latest && now.getTime() - latest.getTime() < AUTH_CODE.resendIntervalMs) {
      const wait = Math.ceil((AUTH_CODE.resendIntervalMs - (now.getTime() - latest.getTime())) / 1000);
      throw new AppError("TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooSoon(wait), { retryAfterSeconds: wait });
    }
    if (recent.length >= AUTH_CODE.maxSendsPerHour) {
      const oldest = recent[recent.length - 1]!.createdAt;
      const wait = Math.ceil((oldest.getTime() + 60 * 60 * 1000 - now.getTime()) / 1000);
      throw new AppError("TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyForPhone, { retryAfterSeconds: wait });
    }
    await spendSmsBudget(deps.rateLimiter, deps.smsHourlyBudget, deps.log);
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
 * Checks a code against the phone's latest live code, under the phone's
 * lock: refused while the phone is locked after a day's wrong codes (even
 * the right code). Each check takes one of the code's five attempts with a
 * conditional update, committed whatever the outcome, so wrong guesses
 * always count; a match then consumes the code once.
 */
export async function verifyCode(deps: CodeDeps, phone: string, code: string): Promise<void> {
  const now = deps.now();
  const refusal = await deps.db.transaction(async (tx): Promise<AppError | null> => {
    await lockPhone(tx, phone);
    const locked = await lockedUntil(tx, phone, now);
    if (locked) return lockedOut(locked, now);
    const [latest] = await tx
      .select()
      .from(authCodes)
      .where(and(eq(authCodes.phone, phone), isNull(authCodes.consumedAt)))
      .orderBy(desc(authCodes.createdAt))
      .limit(1);
    if (!latest) return new AppError("BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    if (latest.expiresAt <= now) return new AppError("BAD_REQUEST", SIGN_IN_MESSAGES.expired);

    const [attempt] = await tx
      .update(authCodes)
      .set({ attempts: sql`${authCodes.attempts} + 1` })
      .where(
        and(eq(authCodes.id, latest.id), isNull(authCodes.consumedAt), lt(authCodes.attempts, AUTH_CODE.maxAttempts)),
      )
      .returning({ attempts: authCodes.attempts });
    if (!attempt) return new AppError("BAD_REQUEST", SIGN_IN_MESSAGES.tooManyAttempts);

    const expected = Buffer.from(latest.codeHash, "hex");
    const given = Buffer.from(hashCode(deps.secret, phone, code), "hex");
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      // This wrong code may be the one that locks the phone: say so now.
      const nowLocked = await lockedUntil(tx, phone, now);
      if (nowLocked) return lockedOut(nowLocked, now);
      return new AppError(
        "BAD_REQUEST",
        attempt.attempts >= AUTH_CODE.maxAttempts ? SIGN_IN_MESSAGES.tooManyAttempts : SIGN_IN_MESSAGES.invalid,
      );
    }
    const [consumed] = await tx
      .update(authCodes)
      .set({ consumedAt: now })
      .where(and(eq(authCodes.id, latest.id), isNull(authCodes.consumedAt)))
      .returning({ id: authCodes.id });
    return consumed ? null : new AppError("BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
  });
  if (refusal) throw refusal;
}

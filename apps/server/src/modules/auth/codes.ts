import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { AUTH_CODE, SIGN_IN_CODES_PER_ADDRESS, SIGN_IN_MESSAGES } from "@quad/contracts";
import type { Database, Transaction } from "@quad/db";
import { authCodes } from "@quad/db/schema";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { AppError } from "../../errors";
import { siteKey } from "../../rate-limit/address";
import type { RateLimiter } from "../../rate-limit/limiter";
import { checkRefusal, sendRefusal, triesPerCode, type Refusal } from "./code-limits";
import { releaseSmsBudget, spendSmsBudget, type BudgetLog } from "../sms/budget";
import { certainlyNotSent, type SmsSender } from "../sms/sender";

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
  /** The app's host (PUBLIC_URL's): the text's last line binds the code to it for the browser's WebOTP. */
  appHost?: string;
}

/**
 * A sign-in text. With the app's host, its last line is WebOTP's origin-bound
 * one ("@quad.example.edu #123456"): Chrome on Android then offers the code to
 * that site's page in one tap, and to no other site.
 */
export function signInCodeText(code: string, appHost?: string): string {
  const text = `${code} is your Quad verification code. It expires in 10 minutes. Never share it with anyone.`;
  return appHost ? `${text}\n\n@${appHost} #${code}` : text;
}

function hashCode(secret: string, phone: string, code: string): string {
  return createHmac("sha256", secret).update(`${phone}:${code}`).digest("hex");
}

/**
 * The requester as stored: keyed, so the table does not hold client addresses. An IPv6 client
 * counts by its /48 here (siteKey): rotating through a site's /64s is one requester.
 */
function requesterHash(secret: string, phone: string, ip: string): string {
  return createHmac("sha256", secret)
    .update(`requester:${phone}:${siteKey(ip)}`)
    .digest("hex");
}

/** The stored form of a code request's value: 256 random bits need no key. */
const requestHash = (codeRequestId: string) => createHash("sha256").update(codeRequestId).digest("hex");

const sixDigits = () => String(randomInt(0, 10 ** AUTH_CODE.digits)).padStart(AUTH_CODE.digits, "0");

/** Sends and checks of one phone take turns, in every server process. */
async function lockPhone(tx: Transaction, phone: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"auth-code:" + phone}))`);
}

/** The phone's codes of the last day: every sign-in limit counts from these. */
function codesOfTheDay(tx: Transaction, phone: string, now: Date) {
  return tx
    .select()
    .from(authCodes)
    .where(
      and(eq(authCodes.phone, phone), gt(authCodes.createdAt, new Date(now.getTime() - AUTH_CODE.failureWindowMs))),
    );
}

const tooMany = (refusal: Refusal) =>
  new AppError("TOO_MANY_REQUESTS", refusal.message, { retryAfterSeconds: refusal.retryAfterSeconds });

/**
 * (School e-mail codes lock this way; sign-in codes no longer do.)
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

/**
 * Sends a sign-in code and answers the opaque `codeRequestId` that the check
 * must present (only its hash is stored). Under a per-phone lock so
 * concurrent requests and several server processes agree, the requester's
 * limits (code-limits.ts), counted from stored codes; then the address's
 * hourly codes (loosely: a campus shares one) and the app's hourly SMS
 * budget, both spent only by a text that will go out, so requests the
 * requester's limits refuse cannot use up a campus's codes.
 */
export async function sendCode(
  deps: CodeDeps,
  phone: string,
  ip: string,
): Promise<{ retryAfterSeconds: number; codeRequestId: string }> {
  const code = (deps.generateCode ?? sixDigits)();
  const codeRequestId = randomBytes(32).toString("base64url");
  const requester = requesterHash(deps.secret, phone, ip);
  const now = deps.now();
  let spent = false;
  try {
    await deps.db.transaction(async (tx) => {
      await lockPhone(tx, phone);
      const refusal = sendRefusal(await codesOfTheDay(tx, phone, now), requester, now);
      if (refusal) throw tooMany(refusal);
      await spendAddressCodes(deps.rateLimiter, ip);
      try {
        await spendSmsBudget(deps.rateLimiter, deps.smsHourlyBudget, deps.log);
      } catch (error) {
        // No text goes out: the address keeps its code (else a spent budget would spend every campus's too).
        await deps.rateLimiter.release(addressCodesKey(ip));
        throw error;
      }
      spent = true;
      await tx.insert(authCodes).values({
        phone,
        codeHash: hashCode(deps.secret, phone, code),
        requestHash: requestHash(codeRequestId),
        requesterHash: requester,
        createdAt: now,
        expiresAt: new Date(now.getTime() + AUTH_CODE.ttlMs),
      });
    });
  } catch (error) {
    // Not stored (a full disk, an unreachable database), so never sent: give back what it spent.
    if (spent) await giveBack(deps.rateLimiter, ip);
    throw error;
  }
  try {
    await deps.sms.send({
      to: phone,
      kind: "code",
      body: signInCodeText(code, deps.appHost),
    });
  } catch (error) {
    if (certainlyNotSent(error)) await giveBack(deps.rateLimiter, ip);
    throw error;
  }
  return { retryAfterSeconds: AUTH_CODE.resendIntervalMs / 1000, codeRequestId };
}

/**
 * The budget and the address's count are spent only by texts that go out: a
 * full disk once spent the hour's budget on codes it never stored, and
 * sign-in stayed refused after space was back.
 */
async function giveBack(limiter: RateLimiter, ip: string): Promise<void> {
  await Promise.allSettled([releaseSmsBudget(limiter), limiter.release(addressCodesKey(ip))]);
}

const addressCodesKey = (ip: string) => `send-code:ip:${ip}`;

/** One of the address's sign-in codes for the hour, or 429 when they are spent. */
async function spendAddressCodes(limiter: CodeDeps["rateLimiter"], ip: string): Promise<void> {
  const { limit, windowMs } = SIGN_IN_CODES_PER_ADDRESS;
  const decision = await limiter.consume(addressCodesKey(ip), limit, windowMs);
  if (!decision.allowed) {
    throw new AppError("TOO_MANY_REQUESTS", SIGN_IN_MESSAGES.tooManyFromIp, {
      retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000),
    });
  }
}

/**
 * Checks a code against the one sent for `codeRequestId`, under the phone's
 * lock. Another request's value, or one never answered, matches nothing and
 * takes no attempt. A requester guessing waits longer after each wrong code
 * (429 with Retry-After); the phone is never locked. Each check takes one
 * of the code's tries with a conditional update, committed whatever the
 * outcome, so wrong guesses always count; a match then consumes the code once,
 * unless `mayStart` refuses the sign-in (a new account without its consents).
 */
export async function verifyCode(
  deps: CodeDeps,
  phone: string,
  code: string,
  codeRequestId: string,
  mayStart: (tx: Transaction) => Promise<AppError | null> = async () => null,
): Promise<void> {
  const now = deps.now();
  const refusal = await deps.db.transaction(async (tx): Promise<AppError | null> => {
    await lockPhone(tx, phone);
    const rows = await codesOfTheDay(tx, phone, now);
    const hash = requestHash(codeRequestId);
    const requested = rows.find((row) => row.requestHash === hash);
    if (!requested) return new AppError("BAD_REQUEST", SIGN_IN_MESSAGES.unknownRequest);
    const slowed = checkRefusal(rows, requested.requesterHash, now);
    if (slowed) return tooMany(slowed);
    if (requested.consumedAt) return new AppError("BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
    if (requested.expiresAt <= now) return new AppError("BAD_REQUEST", SIGN_IN_MESSAGES.expired);

    const tries = triesPerCode(rows);
    const [attempt] = await tx
      .update(authCodes)
      .set({ attempts: sql`${authCodes.attempts} + 1` })
      .where(and(eq(authCodes.id, requested.id), isNull(authCodes.consumedAt), lt(authCodes.attempts, tries)))
      .returning({ attempts: authCodes.attempts });
    if (!attempt) return new AppError("BAD_REQUEST", SIGN_IN_MESSAGES.tooManyAttempts);

    const expected = Buffer.from(requested.codeHash, "hex");
    const given = Buffer.from(hashCode(deps.secret, phone, code), "hex");
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      await tx.update(authCodes).set({ lastFailedAt: now }).where(eq(authCodes.id, requested.id));
      return new AppError(
        "BAD_REQUEST",
        attempt.attempts >= tries ? SIGN_IN_MESSAGES.tooManyAttempts : SIGN_IN_MESSAGES.invalid,
      );
    }
    // A right code refused for what else the sign-in lacks stays unspent, its try given back (it was
    // no wrong guess), so it may come again with what was missing.
    const refused = await mayStart(tx);
    if (refused) {
      await tx
        .update(authCodes)
        .set({ attempts: sql`${authCodes.attempts} - 1` })
        .where(eq(authCodes.id, requested.id));
      return refused;
    }
    const [consumed] = await tx
      .update(authCodes)
      .set({ consumedAt: now })
      .where(and(eq(authCodes.id, requested.id), isNull(authCodes.consumedAt)))
      .returning({ id: authCodes.id });
    return consumed ? null : new AppError("BAD_REQUEST", SIGN_IN_MESSAGES.invalid);
  });
  if (refusal) throw refusal;
}

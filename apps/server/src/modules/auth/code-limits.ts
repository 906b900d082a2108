import { AUTH_CODE, SIGN_IN_MESSAGES } from "@quad/contracts";

/**
 * The sign-in limits as rules over one phone's codes of the last day
 * (decision 0013). A requester is the phone asked about from one client
 * address; every rule that refuses someone refuses a requester, never the
 * phone, so another requester — the owner on their own network — still
 * gets a code and may check it.
 */
export interface CodeRow {
  createdAt: Date;
  requesterHash: string;
  attempts: number;
  consumedAt: Date | null;
  lastFailedAt: Date | null;
}

export interface Refusal {
  message: string;
  retryAfterSeconds: number;
}

const HOUR_MS = 60 * 60 * 1000;

/** Wrong codes entered for a code: its attempts, less the one that matched. */
const failuresOf = (row: CodeRow) => row.attempts - (row.consumedAt ? 1 : 0);
const failuresIn = (rows: readonly CodeRow[]) => rows.reduce((sum, row) => sum + failuresOf(row), 0);
const secondsUntil = (at: number, now: Date) => Math.max(1, Math.ceil((at - now.getTime()) / 1000));
const oldest = (rows: readonly CodeRow[]) => Math.min(...rows.map((row) => row.createdAt.getTime()));

/** Why this requester may not be sent a code now, or null. */
export function sendRefusal(rows: readonly CodeRow[], requester: string, now: Date): Refusal | null {
  const t = now.getTime();
  const mine = rows.filter((row) => row.requesterHash === requester);
  const latest = Math.max(...mine.map((row) => row.createdAt.getTime()));
  if (t - latest < AUTH_CODE.resendIntervalMs) {
    const wait = secondsUntil(latest + AUTH_CODE.resendIntervalMs, now);
    return { message: SIGN_IN_MESSAGES.tooSoon(wait), retryAfterSeconds: wait };
  }
  const lastHour = mine.filter((row) => t - row.createdAt.getTime() < HOUR_MS);
  if (lastHour.length >= AUTH_CODE.maxSendsPerHour)
    return {
      message: SIGN_IN_MESSAGES.tooManyForPhone,
      retryAfterSeconds: secondsUntil(oldest(lastHour) + HOUR_MS, now),
    };
  const day = AUTH_CODE.failureWindowMs;
  if (mine.length >= AUTH_CODE.maxSendsPerDay)
    return { message: SIGN_IN_MESSAGES.tooManyForPhone, retryAfterSeconds: secondsUntil(oldest(mine) + day, now) };
  // Past the phone's wrong codes for the day, a requester that kept guessing wrong is done for the day.
  const failed = mine.filter((row) => failuresOf(row) > 0);
  if (failuresIn(mine) >= AUTH_CODE.requesterFailuresPerDay && failuresIn(rows) >= AUTH_CODE.failuresBeforeOneTry) {
    const newest = Math.max(...failed.map((row) => row.createdAt.getTime()));
    return { message: SIGN_IN_MESSAGES.tooManyWrongFromHere, retryAfterSeconds: secondsUntil(newest + day, now) };
  }
  // The phone's cap on texts; a requester's first code of the day goes out past it.
  if (mine.length > 0 && rows.length >= AUTH_CODE.maxSendsPerPhonePerDay)
    return { message: SIGN_IN_MESSAGES.tooManyForPhone, retryAfterSeconds: secondsUntil(oldest(rows) + day, now) };
  return null;
}

/** How long a requester waits after its latest wrong code: nothing for the first few, then doubling. */
export function slowdownMs(failures: number): number {
  const { freeFailures, firstWaitMs, maxWaitMs } = AUTH_CODE.slowdown;
  if (failures < freeFailures) return 0;
  return Math.min(maxWaitMs, firstWaitMs * 2 ** (failures - freeFailures));
}

/** Why this requester may not check a code now (it is guessing: wait), or null. */
export function checkRefusal(rows: readonly CodeRow[], requester: string, now: Date): Refusal | null {
  const mine = rows.filter((row) => row.requesterHash === requester);
  const wait = slowdownMs(failuresIn(mine));
  if (wait === 0) return null;
  const last = Math.max(...mine.map((row) => row.lastFailedAt?.getTime() ?? 0));
  if (last + wait <= now.getTime()) return null;
  const seconds = secondsUntil(last + wait, now);
  return { message: SIGN_IN_MESSAGES.slowDown(seconds), retryAfterSeconds: seconds };
}

/** Tries a code allows now: one each once the phone has taken its day's wrong codes. */
export function triesPerCode(rows: readonly CodeRow[]): number {
  return failuresIn(rows) >= AUTH_CODE.failuresBeforeOneTry ? 1 : AUTH_CODE.maxAttempts;
}

import { TRPCClientError } from "@trpc/client";
import { SCREEN_TEXT } from "@quad/contracts";
import { errorCodeOf } from "../../lib/api-error";

/** Seconds the server asked us to wait (429 Retry-After), if it said. */
function retryAfterSecondsOf(error: unknown): number | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data: unknown = error.data;
  if (typeof data !== "object" || data === null) return undefined;
  const seconds = (data as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof seconds === "number" && seconds > 0 ? seconds : undefined;
}

/**
 * A vote refused because the allowance is spent (429 with the "Out of Votes"
 * text, as opposed to the generic rate limit): when votes come back, as an
 * ISO time; undefined for any other failure.
 */
export function outOfVotesUntil(error: unknown, now: number = Date.now()): string | undefined {
  if (errorCodeOf(error) !== "TOO_MANY_REQUESTS") return undefined;
  if (!(error instanceof Error) || error.message !== SCREEN_TEXT.outOfVotesBody) return undefined;
  const seconds = retryAfterSecondsOf(error);
  return seconds === undefined ? undefined : new Date(now + seconds * 1000).toISOString();
}

/** A skip refused because none are left in a row (409, "Submit a vote to get more skips!"). */
export function isOutOfSkips(error: unknown): boolean {
  return errorCodeOf(error) === "CONFLICT";
}

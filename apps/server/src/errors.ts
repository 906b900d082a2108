import { ERROR_MESSAGES, type ErrorCode } from "@quad/contracts";
import { isDatabaseUnavailable, isStorageFull } from "@quad/db";

/**
 * A rule the request broke, as a value with a contracts error code.
 * Services throw it; the tRPC and REST edges map it to a status once.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { fieldErrors?: Record<string, string[]>; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = "AppError";
  }
}

/** How long an error asks the client to wait (a limit, an unreachable database), for Retry-After; the cause of a TRPCError. */
export function retryAfterSecondsOf(error: { cause?: unknown }): number | undefined {
  return error.cause instanceof AppError ? error.cause.details.retryAfterSeconds : undefined;
}

/** What a 503 asks clients to wait: a Postgres restart or failover takes seconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The one mapping of "the database is unreachable or did not answer in time"
 * (docs/decisions/0014-failing-fast-when-the-database-is-down.md), and of a
 * write that found no space (a full disk under Postgres or the photos,
 * decision 0033): a 503 with the shared body and Retry-After, on every edge.
 * Undefined for any other error.
 */
export function unavailableError(error: unknown): AppError | undefined {
  if (isStorageFull(error)) return serviceUnavailable(ERROR_MESSAGES.storageFull);
  return isDatabaseUnavailable(error) ? serviceUnavailable() : undefined;
}

export function serviceUnavailable(message: string = ERROR_MESSAGES.unavailable): AppError {
  return new AppError("SERVICE_UNAVAILABLE", message, {
    retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
  });
}

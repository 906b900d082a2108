import type { ErrorCode } from "@quad/contracts";

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

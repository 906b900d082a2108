import { z } from "zod";
import { Int4Count } from "./common";

/**
 * Error codes shared by REST and tRPC, with their HTTP status (docs/product.md
 * "Errors"). Services raise a code; the edges map it once.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_SUPPORTED: 405,
  /** The request did not arrive in time (a client sending too slowly). tRPC's name for 408. */
  TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  /** The database is unreachable or too slow right now; the answer carries Retry-After. */
  SERVICE_UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ApiErrorBody = z.object({
  message: z.string(),
  code: z.enum(ERROR_CODES),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  retryAfterSeconds: Int4Count.optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

export function codeOfStatus(status: number): ErrorCode {
  const match = (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).find(([, s]) => s === status);
  return match ? match[0] : status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST";
}

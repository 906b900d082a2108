import { TRPCClientError } from "@trpc/client";
import { TOASTS, type ApiErrorBody, type ErrorCode } from "@quad/contracts";

/** A non-2xx answer from a REST path under /api, with its parsed JSON body. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(body?.message ?? `Request failed with status ${status}`);
  }
}

interface TrpcErrorData {
  code?: unknown;
  httpStatus?: unknown;
  fieldErrors?: unknown;
  retryAfterSeconds?: unknown;
}

function trpcData(error: unknown): TrpcErrorData | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data: unknown = error.data;
  return typeof data === "object" && data !== null ? (data as TrpcErrorData) : undefined;
}

/** HTTP status of a failed call, if the server answered at all. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof ApiError) return error.status;
  const data = trpcData(error);
  if (typeof data?.httpStatus === "number") return data.httpStatus;
  if (error instanceof TRPCClientError) {
    const meta = error.meta as { response?: { status?: unknown } } | undefined;
    if (typeof meta?.response?.status === "number") return meta.response.status;
  }
  return undefined;
}

/** The contracts error code of a failed call (e.g. "PAYMENT_REQUIRED"), if any. */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  const code = error instanceof ApiError ? error.body?.code : trpcData(error)?.code;
  // Codes come from our own server (contracts' ERROR_STATUS keys); tRPC may add
  // a few of its own (e.g. "TIMEOUT"), which callers simply won't match on.
  return typeof code === "string" && code !== "" ? (code as ErrorCode) : undefined;
}

export function isUnauthorizedError(error: unknown): boolean {
  return errorCodeOf(error) === "UNAUTHORIZED" || httpStatusOf(error) === 401;
}

/** How many seconds the server asked to wait before trying again (a 429's), if it said. */
export function retryAfterOf(error: unknown): number | undefined {
  const raw = error instanceof ApiError ? error.body?.retryAfterSeconds : trpcData(error)?.retryAfterSeconds;
  return typeof raw === "number" && raw > 0 ? Math.ceil(raw) : undefined;
}

/** Field messages the server attached to a 400 (already user-facing, from contracts). */
export function fieldErrorsOf(error: unknown): Record<string, string[]> {
  const raw = error instanceof ApiError ? error.body?.fieldErrors : trpcData(error)?.fieldErrors;
  if (typeof raw !== "object" || raw === null) return {};
  const result: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(raw)) {
    if (Array.isArray(messages)) result[field] = messages.filter((m): m is string => typeof m === "string");
  }
  return result;
}

/**
 * What to tell the student about a failed call: the server's message when it
 * sent one (server messages are written for people, docs/product.md "Errors"),
 * otherwise `fallback` (a contracts text such as TOASTS.submitVoteFailed).
 * Network failures, timeouts and non-JSON answers always use the fallback.
 */
export function toUserMessage(error: unknown, fallback: string = TOASTS.unexpected): string {
  const serverAnswered = error instanceof ApiError ? error.body !== null : errorCodeOf(error) !== undefined;
  if (!serverAnswered || !(error instanceof Error)) return fallback;
  const message = error.message.trim();
  // A raw validation dump (JSON) is not a sentence for a person.
  if (message === "" || message.startsWith("[") || message.startsWith("{")) return fallback;
  return message;
}

import { ERROR_MESSAGES, codeOfStatus, fieldErrorsOf, type ApiErrorBody, type ErrorCode } from "@quad/contracts";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { ZodError } from "zod";
import { AppError, unavailableError } from "../errors";

/**
 * The answer to input that failed its contracts schema, over REST and tRPC
 * alike: the first field's message (written for people) and every field's.
 */
export function invalidInputBody(error: ZodError): ApiErrorBody & { fieldErrors: Record<string, string[]> } {
  return {
    message: error.issues[0]?.message ?? ERROR_MESSAGES.invalidInput,
    code: "BAD_REQUEST",
    fieldErrors: fieldErrorsOf(error),
  };
}

/** Input that failed its schema; not a procedure's own output failing it, which is the server's fault. */
export function isInvalidInput(error: unknown, cause: unknown): cause is ZodError {
  return cause instanceof ZodError && !(error instanceof TRPCError && error.code !== "BAD_REQUEST");
}

/** docs/product.md "Errors": `{message, code, fieldErrors?}` with the fitting status, no internals. */
export function errorResponse(error: unknown): { status: number; body: ApiErrorBody } {
  const inner = error instanceof TRPCError && error.cause ? error.cause : error;
  const cause = inner instanceof AppError ? inner : (unavailableError(inner) ?? inner);
  if (cause instanceof AppError) {
    const status = statusOfCode(cause.code);
    return { status, body: { message: cause.message, code: cause.code, ...cause.details } };
  }
  if (isInvalidInput(error, cause)) return { status: 400, body: invalidInputBody(cause) };
  // Errors from Fastify and its plugins (file too large, bad multipart) carry their status.
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (!(error instanceof TRPCError) && typeof statusCode === "number" && statusCode >= 400 && statusCode < 500) {
    const message = statusCode === 413 ? ERROR_MESSAGES.tooLarge : (error as Error).message;
    return { status: statusCode, body: httpErrorBody(statusCode, message) };
  }
  if (error instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(error);
    if (status >= 500) return internal();
    return { status, body: { message: error.message, code: error.code as ErrorCode } };
  }
  return internal();
}

function statusOfCode(code: ErrorCode): number {
  return getHTTPStatusCodeFromError(new TRPCError({ code }));
}

function internal() {
  return { status: 500, body: { message: ERROR_MESSAGES.unexpected, code: "INTERNAL_SERVER_ERROR" as const } };
}

/** For errors Fastify raises itself (bad JSON, too large, wrong content type, unknown route). */
export function httpErrorBody(status: number, message: string): ApiErrorBody {
  return { message, code: codeOfStatus(status) };
}

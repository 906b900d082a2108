import { ERROR_MESSAGES, fieldErrorsOf, type ErrorCode } from "@quad/contracts";
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { AppError } from "../errors";
import type { Context } from "./context";

// ── init ─────────────────────────────────────────────────────────────────
// isDev is false everywhere: stack traces never reach a client.
const t = initTRPC.context<Context>().create({
  isDev: false,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    return {
      ...shape,
      message: internal ? ERROR_MESSAGES.unexpected : shape.message,
      data: {
        code: shape.data.code as ErrorCode,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        fieldErrors: cause instanceof ZodError ? fieldErrorsOf(cause) : cause instanceof AppError ? cause.details.fieldErrors : undefined,
        retryAfterSeconds: cause instanceof AppError ? cause.details.retryAfterSeconds : undefined,
      },
    };
  },
});

/** Turns a service's AppError into the matching TRPCError, once, for every procedure. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const appError = result.error.cause;
    throw new TRPCError({ code: appError.code, message: appError.message, cause: appError });
  }
  return result;
});

// ── procedures ───────────────────────────────────────────────────────────
export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(mapAppErrors);

/** Needs a valid session; narrows `viewer` for the procedures behind it. */
export const sessionProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.viewer) throw new AppError("UNAUTHORIZED", ERROR_MESSAGES.unauthorized);
  return next({ ctx: { ...ctx, viewer: ctx.viewer } });
});

import { ERROR_MESSAGES, type ErrorCode } from "@quad/contracts";
import { initTRPC, TRPCError } from "@trpc/server";
import { AppError, unavailableError } from "../errors";
import { invalidInputBody, isInvalidInput } from "../http/error-body";
import { noteStorageFull } from "../modules/health/service";
import type { Context } from "./context";
import { LIVE_CLIENT_RECONNECT_MS, LIVE_HEARTBEAT_MS } from "../modules/live/hub";
import { controlCharacterError } from "./control-characters";

// ── init ─────────────────────────────────────────────────────────────────
// isDev is false everywhere: stack traces never reach a client.
const t = initTRPC.context<Context>().create({
  isDev: false,
  // Subscriptions (live.events): a ping on a quiet stream, and the client's cue to reconnect when pings stop.
  sse: {
    ping: { enabled: true, intervalMs: LIVE_HEARTBEAT_MS },
    client: { reconnectAfterInactivityMs: LIVE_CLIENT_RECONNECT_MS },
  },
  // The same message and field errors as the REST answer (http/error-body.ts), never zod's issue dump.
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    const invalid = isInvalidInput(error, cause) ? invalidInputBody(cause) : undefined;
    return {
      ...shape,
      message: internal ? ERROR_MESSAGES.unexpected : (invalid?.message ?? shape.message),
      data: {
        code: shape.data.code as ErrorCode,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        fieldErrors: invalid ? invalid.fieldErrors : cause instanceof AppError ? cause.details.fieldErrors : undefined,
        retryAfterSeconds: cause instanceof AppError ? cause.details.retryAfterSeconds : undefined,
      },
    };
  },
});

const fromAppError = (appError: AppError) =>
  new TRPCError({ code: appError.code, message: appError.message, cause: appError });

/**
 * A subscription's error, thrown while its events are read (after its
 * middlewares returned): an AppError becomes its TRPCError here, as
 * toTrpcError does for every other procedure.
 */
export const streamError = (error: unknown): unknown => (error instanceof AppError ? fromAppError(error) : error);

/**
 * Turns a service's AppError into the matching TRPCError, once, for every
 * procedure; so too an unreachable database or a full disk (503, not a 500),
 * which readiness then reports.
 */
function toTrpcError<T extends { ok: boolean; error?: TRPCError }>(result: T, ctx: Context): T {
  if (result.ok || !result.error) return result;
  const cause = result.error.cause;
  if (cause instanceof AppError) throw fromAppError(cause);
  const unavailable = unavailableError(cause);
  if (unavailable) {
    noteStorageFull(ctx.lifecycle, ctx.now, cause);
    throw fromAppError(unavailable);
  }
  return result;
}

/**
 * Input every procedure refuses before its own schema reads it. A body that
 * is not JSON is left to the procedure: one without input never reads it.
 */
async function refuseInput(getRawInput: () => Promise<unknown>) {
  const rawInput = await getRawInput().catch(() => undefined);
  const invalid = controlCharacterError(rawInput);
  if (invalid) throw fromAppError(invalid);
}

/**
 * A procedure call's first step, in the call's span when tracing is on
 * (tracing/procedure-spans.ts). Every procedure starts with one of the two
 * steps below, whichever protocol called it (tRPC, each call of a batch, or
 * REST), so this is the one place a call is traced. Off, the step runs as it is.
 */
function traced<T>(ctx: Context, path: string, step: () => Promise<T>): Promise<T> {
  return ctx.tracing ? ctx.tracing.procedure(path, step) : step();
}

// ── procedures ───────────────────────────────────────────────────────────
export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(({ ctx, path, getRawInput, next }) =>
  traced(ctx, path, async () => {
    await refuseInput(getRawInput);
    return toTrpcError(await next(), ctx);
  }),
);

/**
 * Needs a valid session; narrows `viewer` for the procedures behind it. One
 * middleware (not publicProcedure's plus another): each level of tRPC's
 * middleware chain copies the call's options. (Handing the context on as
 * `ctx: undefined` cast to the narrowing saved nothing measurable, on a
 * tRPC whose object spread was then patched: decision 0022.)
 */
export const sessionProcedure = t.procedure.use(({ ctx, path, getRawInput, next }) =>
  traced(ctx, path, async () => {
    const viewer = ctx.viewer;
    if (!viewer) throw fromAppError(new AppError("UNAUTHORIZED", ERROR_MESSAGES.unauthorized));
    await refuseInput(getRawInput);
    return toTrpcError(await next({ ctx: { viewer } }), ctx);
  }),
);

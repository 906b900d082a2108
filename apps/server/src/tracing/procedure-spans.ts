import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from "@opentelemetry/api";
import { getTRPCErrorFromUnknown } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";

/** Runs one call of a tRPC procedure inside its span. */
export type ProcedureSpan = <T>(path: string, run: () => Promise<T>) => Promise<T>;

/** A failed call's span: its tRPC code as `error.type`, and an error status when the server is at fault (5xx). */
function failed(span: Span, cause: unknown): void {
  const error = getTRPCErrorFromUnknown(cause);
  span.setAttribute("error.type", error.code);
  if (getHTTPStatusCodeFromError(error) >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * A span per procedure call, over tRPC (each call of a batch its own) or
 * REST, named by the procedure's path ("rounds.vote"). Its parent is the
 * request's span; the statements the call sends are its children. Neither
 * input nor output goes into it, and for a failure only the tRPC code.
 */
export function procedureSpans(tracer: Tracer): ProcedureSpan {
  return async (path, run) => {
    const span = tracer.startSpan(path, {
      kind: SpanKind.INTERNAL,
      attributes: { "rpc.system": "trpc", "rpc.method": path },
    });
    try {
      const result = await context.with(trace.setSpan(context.active(), span), run);
      // A middleware answers errors from the steps below it as a result rather than throwing them.
      const outcome = result as { ok?: unknown; error?: unknown };
      if (outcome?.ok === false) failed(span, outcome.error);
      return result;
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  };
}

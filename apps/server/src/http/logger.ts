import fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import pino, { type LogFn, type Logger } from "pino";
import type { ErrorReporter } from "../error-reports/reporter";

/** Bytes of log lines held before they are written to stdout in one write. */
const LOG_BUFFER_BYTES = 4096;
/** Lines held longer than this are written anyway: a quiet server's lines (an error, say) do not wait for 4 KB. */
const LOG_FLUSH_MS = 250;

function bufferedStdout() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // Closed at exit: pino wrote what it held then.
    }
  }, LOG_FLUSH_MS).unref();
  return destination;
}

/**
 * Request logs carry the method and path only: query strings can hold phone
 * numbers and headers hold tokens, and neither belongs in a log.
 *
 * Lines go to stdout through a buffer of 4 KB written asynchronously (and at
 * least every 250 ms), rather than one synchronous write per line: at info
 * (production's level) the writes were 11 % of the server's CPU on /users/me
 * (`pnpm --filter @quad/bench run profile --case me --env LOG_LEVEL=info`).
 * pino flushes the buffer when the process exits, a crash included; only a
 * kill -9 loses what is held. Tests pass their own `stream`.
 */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
  reporter?: ErrorReporter,
): FastifyServerOptions["logger"] {
  return {
    level,
    stream: stream ?? bufferedStdout(),
    ...(reporter && { hooks: { logMethod: reportingErrors(reporter) } }),
    redact: {
      paths: [
        "req.headers.authorization",
        "*.phone",
        "*.email",
        "*.schoolEmail",
        "*.address",
        "*.token",
        "*.refreshToken",
        "*.code",
      ],
      censor: "[redacted]",
    },
    serializers: {
      // The request's id is already on every line of it (`reqId`).
      req: (req: { method: string; url: string }) => ({
        method: req.method,
        path: req.url.split("?")[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

/**
 * One line per request, when it is answered: the method and path, the
 * status and the time taken, and with tracing on the request's `traceId`. Fastify's own controller writes two (one on
 * arrival, one on completion); this one writes the completion line with
 * the request in it, so half the lines, and half of pino's serialising and
 * redacting, for the same facts. Every other line (errors, 404s, aborted
 * streams) is Fastify's as before; a request that never completes shows in
 * those.
 */
export class OneLineRequestLog extends fastify.LogController {
  /** @param tracing present when tracing is on: the line names the request's trace. */
  constructor(private readonly tracing?: { traceIdOf(request: FastifyRequest): string | undefined }) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    const traced = this.tracing ? { ...line, traceId: this.tracing.traceIdOf(request) } : line;
    if (error) reply.log.error({ ...traced, err: error }, "request errored");
    else reply.log.info(traced, "request completed");
  }
}

/** pino's level number for `error`: lines at it or above (fatal) with an error are reported. */
const ERROR_LEVEL = 50;

/**
 * Every line the app logs at error with an `err` (a request or procedure that
 * failed unexpectedly, a job, a webhook) is also an error report: one place,
 * whatever logged it. Only the route's pattern, the procedure, the job and the
 * line's message go with it; the report is scrubbed before it leaves.
 */
function reportingErrors(reporter: ErrorReporter) {
  return function (this: Logger, args: Parameters<LogFn>, method: LogFn, level: number): void {
    const [fields, message] = args as [unknown, unknown];
    const err = (fields as { err?: unknown } | null)?.err;
    if (level >= ERROR_LEVEL && err instanceof Error) {
      const { procedure, job, req } = fields as {
        procedure?: unknown;
        job?: unknown;
        req?: { routeOptions?: { url?: string } };
      };
      reporter.capture(err, {
        message: typeof message === "string" ? message : undefined,
        route: req?.routeOptions?.url,
        procedure: typeof procedure === "string" ? procedure : undefined,
        job: typeof job === "string" ? job : undefined,
      });
    }
    method.apply(this, args);
  };
}

import fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import { stdSerializers, type LogFn, type Logger } from "pino";
import SonicBoom from "sonic-boom";
import type { ErrorReporter } from "../error-reports/reporter";
import { scrubLoggedError } from "../error-reports/scrub";

/** Bytes of log lines held before they are written to stdout in one write. */
const LOG_BUFFER_BYTES = 4096;
/** Lines held longer than this are written anyway: a quiet server's lines (an error, say) do not wait for 4 KB. */
const LOG_FLUSH_MS = 250;
/** While stdout takes nothing, lines past this much are dropped rather than held in memory. */
const LOG_HELD_MAX_BYTES = 8 * 1024 * 1024;
/** How long the flush at exit may wait for a stdout that takes nothing (a reader that stopped reading). */
const EXIT_FLUSH_MS = 500;

/**
 * Stdout through sonic-boom (pino's own writer), flushed synchronously at
 * exit, and that flush bounded: pino.destination's sonic-boom 4 retried a
 * write that failed with EPIPE (its reader gone) or EAGAIN (a full pipe
 * nobody reads) every 100 ms for ever, so a process whose log reader had
 * gone never exited, SIGTERM or not (decision 0033). sonic-boom 5 throws a
 * write error other than EAGAIN, and gives up EAGAIN when told to: past
 * EXIT_FLUSH_MS into the exit, what is left is dropped.
 */
function bufferedStdout() {
  // Node makes a pipe on stdout non-blocking once process.stdout is used: a reader that stops
  // reading then answers the exit's writes with EAGAIN, which is bounded, instead of blocking
  // the process in write(2) for good.
  void process.stdout.writable;
  let exitingAt: number | undefined;
  const destination = new SonicBoom({
    fd: 1,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    maxLength: LOG_HELD_MAX_BYTES,
    periodicFlush: LOG_FLUSH_MS,
    retryEAGAIN: () => exitingAt === undefined || performance.now() - exitingAt < EXIT_FLUSH_MS,
  });
  // A reader gone for good (EPIPE): stop writing, as pino does for its own destination.
  destination.on("error", () => {
    destination.write = () => true;
    destination.flushSync = () => {};
  });
  process.on("exit", () => {
    exitingAt = performance.now();
    try {
      destination.flushSync();
    } catch {
      // Nobody takes stdout any more: what is held is lost, and the process exits.
    }
  });
  return destination;
}

/**
 * Request logs carry the method and path only: query strings can hold phone
 * numbers and headers hold tokens, and neither belongs in a log. Errors are
 * logged without the values a failed query was given.
 *
 * Lines go to stdout through a buffer of 4 KB written asynchronously (and at
 * least every 250 ms), rather than one synchronous write per line: at info
 * (production's level) the writes were 11 % of the server's CPU on /users/me
 * (`pnpm --filter @quad/bench run profile --case me --env LOG_LEVEL=info`).
 * The buffer is flushed when the process exits, a crash included; only a
 * kill -9, or a stdout nobody takes any more, loses what is held. Tests pass
 * their own `stream`.
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
      // Each cause its own object, so a failed query's values are cut from its own message only.
      err: (err: Error) => scrubLoggedError(stdSerializers.errWithCause(err)),
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

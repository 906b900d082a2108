import type { Config } from "../env";

/** Where unexpected errors go besides the log: Sentry when SENTRY_DSN is set. */
export interface ErrorReporter {
  /** Sends the error with a few facts (the procedure, the job, the log line's message), scrubbed. */
  capture(error: Error, details: Record<string, string | undefined>): void;
  /** Waits up to `timeoutMs` for reports still being sent (at shutdown). */
  flush(timeoutMs: number): Promise<boolean>;
}

/**
 * The reporter the configuration asks for, or none. Sentry's SDK is loaded
 * only then, so a server without SENTRY_DSN never loads it.
 */
export async function startErrorReports(
  config: Pick<Config, "SENTRY_DSN" | "NODE_ENV">,
): Promise<ErrorReporter | undefined> {
  if (!config.SENTRY_DSN) return undefined;
  const { createSentryReporter } = await import("./sentry");
  return createSentryReporter({ dsn: config.SENTRY_DSN, environment: config.NODE_ENV });
}

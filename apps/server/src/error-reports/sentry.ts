import {
  createStackParser,
  createTransport,
  dedupeIntegration,
  linkedErrorsIntegration,
  Scope,
  type BaseTransportOptions,
} from "@sentry/core";
import { nodeStackLineParser, ServerRuntimeClient } from "@sentry/core/server";
import type { ErrorReporter } from "./reporter";
import { scrubEvent } from "./scrub";

/** A report that takes longer than this to send is dropped: reporting must never hold the server up. */
const SEND_TIMEOUT_MS = 5_000;

/** Posts Sentry's envelopes with Node's fetch (the SDK's own transport, minus @sentry/node's weight). */
function fetchTransport(options: BaseTransportOptions) {
  return createTransport(options, async ({ body }) => {
    const response = await fetch(options.url, {
      method: "POST",
      body,
      headers: options.headers,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    return {
      statusCode: response.status,
      headers: {
        "x-sentry-rate-limits": response.headers.get("x-sentry-rate-limits"),
        "retry-after": response.headers.get("retry-after"),
      },
    };
  });
}

/**
 * Error reports to Sentry through its core SDK, on a client of our own (no
 * global hooks, no tracing, no breadcrumbs). Every event passes scrubEvent
 * before it leaves.
 */
export function createSentryReporter(options: { dsn: string; environment: string }): ErrorReporter {
  const client = new ServerRuntimeClient({
    dsn: options.dsn,
    environment: options.environment,
    platform: "node",
    runtime: { name: "node", version: process.version },
    transport: fetchTransport,
    stackParser: createStackParser(nodeStackLineParser()),
    integrations: [dedupeIntegration(), linkedErrorsIntegration()],
    sendDefaultPii: false,
    maxBreadcrumbs: 0,
    beforeSend: (event) => scrubEvent(event),
  });
  client.init();
  const scope = new Scope();
  scope.setClient(client);
  return {
    capture(error, details) {
      const local = scope.clone();
      local.setExtras(details);
      local.captureException(error);
    },
    flush: async (timeoutMs) => client.flush(timeoutMs),
  };
}

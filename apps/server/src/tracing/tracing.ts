import type { Database, DatabaseKind } from "@quad/db";
import type { SpanExporter } from "@opentelemetry/sdk-trace-node";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../env";
import type { ProcedureSpan } from "./procedure-spans";

/**
 * Traces of requests, on when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (docs/operations.md "Traces"): a span per HTTP request, per tRPC
 * procedure call (over either protocol) and per SQL statement, sent over
 * OTLP/HTTP. Off, none of this exists: `loadTracing` answers undefined
 * without loading the SDK, and every caller checks for that.
 */
export interface Tracing {
  /** The same database with a span per statement sent inside a traced request. */
  observe(db: Database, kind: DatabaseKind): Database;
  /** Adds the request spans to the app; before any hook or route. */
  register(app: FastifyInstance): Promise<void>;
  /** Runs a procedure call in its span (trpc/init.ts, the step every procedure starts with). */
  procedure: ProcedureSpan;
  /** The trace a request belongs to, for its log line. */
  traceIdOf(request: FastifyRequest): string | undefined;
  /** Sends the spans still held, then stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** Where spans go instead of the OTLP endpoint, each as it ends (tests read them from memory). */
  exporter?: SpanExporter;
}

/** Starts tracing when the configuration asks for it; otherwise loads nothing and answers undefined. */
export async function loadTracing(config: Config, options: TracingOptions = {}): Promise<Tracing | undefined> {
  if (!config.tracingEnabled) return undefined;
  const { startTracing } = await import("./sdk");
  return startTracing(config, options);
}

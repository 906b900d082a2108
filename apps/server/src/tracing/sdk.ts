import { trace } from "@opentelemetry/api";
import type * as SdkTraceNode from "@opentelemetry/sdk-trace-node";
import { observeStatements } from "@quad/db";
import type { FastifyRequest } from "fastify";
import type { Config } from "../env";
import { procedureSpans } from "./procedure-spans";
import { databaseAttributes, statementSpans } from "./statement-spans";
import type { Tracing, TracingOptions } from "./tracing";

// Only loadTracing (tracing.ts) imports this module, and only when tracing is on. Every SDK package is
// imported here with import(), never at the top: the server bundle keeps a top-level import as a static
// one, which would load the SDK at every start (tracing/off.test.ts checks the bundle).

type Sdk = typeof SdkTraceNode;

/** OTEL_TRACES_SAMPLER as the SDK's sampler, with OTEL_TRACES_SAMPLER_ARG as the ratio. */
function samplerOf(sdk: Sdk, config: Config) {
  const ratio = () => new sdk.TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG);
  switch (config.OTEL_TRACES_SAMPLER) {
    case "always_on":
      return new sdk.AlwaysOnSampler();
    case "always_off":
      return new sdk.AlwaysOffSampler();
    case "traceidratio":
      return ratio();
    case "parentbased_always_on":
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() });
    case "parentbased_always_off":
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new sdk.ParentBasedSampler({ root: ratio() });
  }
}

/**
 * The request's span, as `@fastify/otel` starts it, named as HTTP servers'
 * spans are ("GET /api/users/me", by the route's pattern), with the path
 * alone: the query string can hold a phone number (as in the request log).
 */
function nameRequestSpan(
  span: { updateName(name: string): unknown; setAttribute(key: string, value: string): unknown },
  request: FastifyRequest,
) {
  const route = request.routeOptions.url;
  span.updateName(route ? `${request.method} ${route}` : request.method);
  span.setAttribute("url.path", request.url.split("?")[0]!);
}

export async function startTracing(config: Config, options: TracingOptions): Promise<Tracing> {
  const [sdk, resources, { FastifyOtelInstrumentation }] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/resources"),
    import("@fastify/otel"),
  ]);
  const exporter =
    options.exporter ??
    new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter({
      // The signal's path under the endpoint, as OpenTelemetry's OTEL_EXPORTER_OTLP_ENDPOINT means it.
      url: `${config.OTEL_EXPORTER_OTLP_ENDPOINT!.replace(/\/+$/, "")}/v1/traces`,
    });
  const provider = new sdk.NodeTracerProvider({
    resource: resources
      .defaultResource()
      .merge(resources.resourceFromAttributes({ "service.name": config.OTEL_SERVICE_NAME })),
    sampler: samplerOf(sdk, config),
    // Batched to the collector, off the request's path; a test's exporter gets each span as it ends.
    spanProcessors: [options.exporter ? new sdk.SimpleSpanProcessor(exporter) : new sdk.BatchSpanProcessor(exporter)],
  });
  // The context manager (AsyncLocalStorage), so a span started in a request is the parent of what it awaits,
  // and W3C trace context, so a caller's traceparent header is honoured.
  provider.register();
  const tracer = provider.getTracer("quad");

  const requests = new FastifyOtelInstrumentation({
    // One span per request: no span per hook or per handler (each would add a span to every request).
    instrumentHooks: false,
    instrumentHandler: false,
    // An exception's message and stack can quote what a request sent.
    recordExceptions: false,
    requestHook: nameRequestSpan,
  });
  requests.setTracerProvider(provider);

  return {
    observe: (db, kind) => observeStatements(db, kind, statementSpans(tracer, databaseAttributes(config.DATABASE_URL))),
    register: async (app) => {
      await app.register(requests.plugin());
    },
    procedure: procedureSpans(tracer),
    traceIdOf: (request) => {
      const { context } = request.opentelemetry();
      return context ? trace.getSpanContext(context)?.traceId : undefined;
    },
    shutdown: () => provider.shutdown(),
  };
}

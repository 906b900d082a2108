import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ERROR_MESSAGES, routeList } from "@quad/contracts";
import { registerTrpcEndpoint } from "@quad/trpc-fastify-single-call";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import type { ErrorReporter } from "./error-reports/reporter";
import { retryAfterSecondsOf } from "./errors";
import { errorResponse, httpErrorBody } from "./http/error-body";
import { builtInlineHashes } from "./http/inline-hashes";
import { loggerOptions, OneLineRequestLog } from "./http/logger";
import { registerHttpMetrics } from "./metrics/http-metrics";
import { countingRefusals } from "./metrics/limiter-metrics";
import { registerLiveMetrics } from "./metrics/live-metrics";
import { registerStorageMetrics } from "./metrics/storage-metrics";
import { registerDatabaseGauges } from "./metrics/outbox-metrics";
import { registerSecurityHeaders } from "./http/security-headers";
import { registerSpa } from "./http/spa";
import { registerMediaRoutes } from "./media/routes";
import { noteStorageFull } from "./modules/health/service";
import { registerStripeWebhook } from "./modules/payments/webhook-route";
import { registerSmsWebhooks } from "./modules/sms/webhooks";
import { registerProfileUpdateRoute } from "./modules/users/upload-route";
import { registerApiDocs } from "./rest/docs";
import { buildOpenApiDocument } from "./rest/openapi";
import { registerRestRoutes } from "./rest/adapter";
import { registerStreamRoutes } from "./rest/event-stream";
import { requestContextFactory, type AppDeps, type Context } from "./trpc/context";
import { appRouter } from "./trpc/root";
import { eligibilityChanged } from "./modules/rounds/eligibility";

/**
 * Routes whoever starts the app adds to it (the bench adds its ceilings, see
 * bench/src/routes.ts), with the app's own context factory. The app itself
 * registers none.
 */
export type AppPlugin = (
  app: FastifyInstance,
  tools: { createContext: (request: FastifyRequest) => Promise<Context> },
) => Promise<void> | void;

export interface BuildAppOptions extends AppDeps {
  /** The built web app to serve at /, when present. */
  webDistDir?: string;
  /** Pass false to silence request logs in tests. */
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read what would be logged). */
  logStream?: { write(line: string): void };
  /** Registered after the API's own routes, before the media routes and the SPA. */
  plugins?: readonly AppPlugin[];
  /** Unexpected errors the log records go here too (SENTRY_DSN). */
  errorReporter?: ErrorReporter;
}

/** The most calls one tRPC batch may carry; the client's link uses the same. */
export const TRPC_MAX_BATCH_SIZE = 10;
/** JSON bodies are small; photos go through the multipart route with its own limit. */
const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * Fastify's own answer to a request Node rejected before routing (too slow,
 * malformed), with the shared error body instead of Fastify's.
 */
function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const status = error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const message =
    status === 408 ? ERROR_MESSAGES.requestTimeout : status === 431 ? "Request headers too large" : "Bad request";
  const body = JSON.stringify(httpErrorBody(status, message));
  this.log.debug({ err: error }, "client error");
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Builds the whole HTTP app without listening, so tests drive it with inject(). */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { webDistDir, logger, logStream, plugins = [], errorReporter, ...given } = opts;
  // With metrics on (METRICS_PORT), refusals are counted by limit; off, nothing is in the way.
  const deps = given.config.metricsEnabled ? { ...given, rateLimiter: countingRefusals(given.rateLimiter) } : given;
  const app = Fastify({
    logger: logger === false ? false : loggerOptions(deps.config.LOG_LEVEL, logStream, errorReporter),
    logController: new OneLineRequestLog(deps.tracing),
    bodyLimit: JSON_BODY_LIMIT,
    // Per-address limits read the client address; trust X-Forwarded-For only behind a proxy we run.
    // A list trusts those addresses only (proxy-addr, as Fastify takes it).
    trustProxy: deps.config.TRUST_PROXY ?? false,
    // A tRPC batch names its procedures in the path: room for TRPC_MAX_BATCH_SIZE long names.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // Slow clients are cut off (a byte every few seconds would otherwise hold a connection for
    // ever): Node answers 408 once the headers or the whole request are late, checking every
    // second rather than its default 30 s.
    requestTimeout: deps.config.HTTP_REQUEST_TIMEOUT_MS,
    http: { headersTimeout: deps.config.HTTP_HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1000 },
    clientErrorHandler: answerClientError,
    // A request that reaches a shutting-down process on a kept-alive connection is answered (the
    // database is open until every request is) with Connection: close, not refused with a bare 503:
    // the proxy passes a 503 on, while a closed connection sends its next request to another replica.
    return503OnClosing: false,
  });

  // Before every hook and route, so each request's span covers them (tracing on; off, nothing is added).
  if (deps.tracing) await deps.tracing.register(app);
  const createContext = requestContextFactory(deps);
  // First, so every answer below (not-found and error answers too) carries them.
  registerSecurityHeaders(app, deps.config, builtInlineHashes(webDistDir));
  if (deps.config.metricsEnabled) {
    registerHttpMetrics(app, new Set(Object.keys(appRouter._def.procedures)));
    registerDatabaseGauges(deps.db, deps.now);
    registerStorageMetrics(deps.lifecycle, deps.now, deps.config.dataDir);
    registerLiveMetrics(deps.live);
  }

  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      const { status: mapped, body } = errorResponse(error);
      if (mapped === 503) {
        noteStorageFull(deps.lifecycle, deps.now, error);
        return reply.code(503).header("retry-after", String(body.retryAfterSeconds)).send(body);
      }
      request.log.error({ err: error }, "request failed");
      return reply.code(500).send(httpErrorBody(500, ERROR_MESSAGES.unexpected));
    }
    const message = status === 413 ? ERROR_MESSAGES.tooLarge : error.message;
    return reply.code(status).send(httpErrorBody(status, message));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(httpErrorBody(404, `No route for ${request.method} ${request.url.split("?")[0]}`));
  });

  await registerTrpcEndpoint(app, {
    prefix: "/api/trpc",
    router: appRouter,
    createContext,
    maxBatchSize: TRPC_MAX_BATCH_SIZE,
    retryAfterSeconds: retryAfterSecondsOf,
    onError({ error, path, req }) {
      if (error.code === "INTERNAL_SERVER_ERROR") req.log.error({ err: error, procedure: path }, "procedure failed");
    },
  });

  const mounted = registerRestRoutes(app, {
    router: appRouter,
    createContext,
    devRoutesEnabled: deps.config.devRoutesEnabled,
  });
  const streams = registerStreamRoutes(app, { router: appRouter, createContext });
  await registerProfileUpdateRoute(app, createContext);
  if (deps.stripe && deps.config.STRIPE_WEBHOOK_SECRET) {
    await registerStripeWebhook(app, {
      stripe: deps.stripe,
      webhookSecret: deps.config.STRIPE_WEBHOOK_SECRET,
      db: deps.db,
      now: deps.now,
      onFulfilled: () => eligibilityChanged(deps.candidatePool),
    });
  }
  await registerSmsWebhooks(app, { db: deps.db, config: deps.config, now: deps.now });
  const openApi = buildOpenApiDocument([...mounted, ...streams, ...routeList.filter((route) => route.multipart)], {
    version: "1.0.0",
    serverUrl: deps.config.PUBLIC_URL,
  });
  app.get("/api/openapi.json", (_request, reply) => reply.send(openApi));
  if (deps.config.devRoutesEnabled) await registerApiDocs(app, openApi);

  for (const plugin of plugins) await plugin(app, { createContext });
  registerMediaRoutes(app, deps.media);
  await registerSpa(app, webDistDir);
  return app;
}

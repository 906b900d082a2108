import path from "node:path";
import { DataDirLockedError } from "@quad/db";
import { buildApp, type AppPlugin } from "./app";
import { openDatabase } from "./database";
import { devJwtSecret, devVapidKeys } from "./dev-secret";
import { loadConfig, type Config } from "./env";
import { startErrorReports } from "./error-reports/reporter";
import { createDiskStorage } from "./media/storage";
import { createFirebaseVerifier } from "./modules/auth/firebase";
import { createSessionRevocations } from "./modules/auth/revocations";
import { createLocalLiveBus, createPostgresLiveBus } from "./modules/live/bus";
import { createEventIds } from "./modules/live/event-ids";
import { createLiveHub, type LiveHub } from "./modules/live/hub";
import {
  createLocalPaymentProvider,
  createStripeClient,
  createStripePaymentProvider,
} from "./modules/payments/provider";
import { createCandidatePool } from "./modules/rounds/candidate-pool";
import { createLocalInvalidationBus, createPostgresInvalidationBus } from "./modules/rounds/pool-invalidation";
import { createJobScheduler } from "./jobs/scheduler";
import { notificationJob } from "./modules/notifications/job";
import { createEmailSender, createSmtpProvider, outboxEmailProvider } from "./modules/school-email/email-sender";
import { pushEndpointPolicyFor } from "./modules/push/endpoint-policy";
import { createWebPushSender, type PushSender } from "./modules/push/sender";
import { publicUrlOf } from "./modules/sms/public-url";
import { createSmsSender, outboxProvider } from "./modules/sms/sender";
import { createTwilioProvider } from "./modules/sms/twilio";
import { SMS_STATUS_PATH } from "./modules/sms/webhooks";
import { createMemoryRateLimiter } from "./rate-limit/limiter";
import { createRedisRateLimiter, type LimiterLog } from "./rate-limit/redis-limiter";
import { startMetricsServer } from "./metrics/server";
import { loadTracing } from "./tracing/tracing";
import { poolMetrics } from "./metrics/pool-metrics";
import { findWebDist } from "./web-dist";

export interface StartOptions {
  /** Routes added to the app (buildApp's plugins); `pnpm start` adds none. */
  plugins?: readonly AppPlugin[];
}

/** Starts one server process: config, database, HTTP. Everything else is in buildApp. */
async function startServer(options: StartOptions) {
  const config = await loadConfig();
  const errorReporter = await startErrorReports(config);
  const jwtSecret = config.JWT_SECRET ?? (await devJwtSecret(config.dataDir));
  const push = config.webPushEnabled ? await webPushSender(config) : undefined;
  const media = createDiskStorage(path.join(config.dataDir, "media"));
  const database = await openDatabase(config, media, (message) => console.log(message));
  // With tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), every service gets the database whose statements are spans.
  const tracing = await loadTracing(config);
  const db = tracing ? tracing.observe(database.db, database.kind) : database.db;
  if (config.metricsEnabled && database.pool) poolMetrics(database.pool);
  const webDistDir = findWebDist(config.WEB_DIST_DIR);
  const now = () => new Date();
  const stripe =
    config.PAYMENT_PROVIDER === "stripe" ? createStripeClient({ secretKey: config.STRIPE_SECRET_KEY! }) : undefined;
  const smsProvider =
    config.SMS_PROVIDER === "twilio"
      ? createTwilioProvider({
          accountSid: config.TWILIO_ACCOUNT_SID!,
          authToken: config.TWILIO_AUTH_TOKEN!,
          from: config.TWILIO_FROM!,
          statusCallbackUrl: publicUrlOf(config.PUBLIC_URL, SMS_STATUS_PATH),
          baseUrl: config.TWILIO_API_BASE_URL,
        })
      : outboxProvider;
  // The limiter exists before the app (the app takes it), so its messages go to the app's logger once there is one.
  let appLog: LimiterLog = {
    warn: (details, message) => console.warn(message, details),
    info: (details, message) => console.log(message, details),
  };
  const limiterLog: LimiterLog = {
    warn: (details, message) => appLog.warn(details, message),
    info: (details, message) => appLog.info(details, message),
  };
  const rateLimiter = config.REDIS_URL
    ? createRedisRateLimiter(config.REDIS_URL, {
        prefix: config.REDIS_KEY_PREFIX,
        commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
        log: limiterLog,
      })
    : createMemoryRateLimiter();
  // Several processes on one Postgres hear each other's candidate-pool changes (LISTEN/NOTIFY).
  const poolBus = config.DATABASE_URL
    ? await createPostgresInvalidationBus(config.DATABASE_URL, {
        onError: (error) => console.error("pool invalidation failed", error),
      })
    : createLocalInvalidationBus();
  // Sign-outs reach every process the same way (decision 0011); on PGlite this process is the only one.
  const sessionRevocations = await createSessionRevocations({
    db,
    now,
    listenUrl: config.DATABASE_URL,
    onError: (error) => console.error("reloading session revocations failed", error),
  });
  // Live streams: one LISTEN per process on Postgres; after its reconnect, streams end and their clients resume.
  const liveBus = config.DATABASE_URL
    ? await createPostgresLiveBus(config.DATABASE_URL, {
        onError: (error) => console.error("live notice failed", error),
        // Called only after a reconnect, long after `live` below exists.
        onReconnect: () => live.endAll(),
      })
    : createLocalLiveBus();
  const live: LiveHub = createLiveHub({
    db,
    bus: liveBus,
    eventIds: createEventIds(jwtSecret),
    revocations: sessionRevocations,
    now: Date.now,
    onError: (error) => console.error("live event failed", error),
  });
  const lifecycle = { draining: false };
  const app = await buildApp({
    config,
    db,
    dbKind: database.kind,
    media,
    sms: createSmsSender(db, smsProvider, now),
    email: createEmailSender(
      db,
      config.EMAIL_PROVIDER === "smtp"
        ? createSmtpProvider({ url: config.SMTP_URL!, from: config.EMAIL_FROM })
        : outboxEmailProvider,
      now,
    ),
    push,
    rateLimiter,
    candidatePool: createCandidatePool(db, Date.now, poolBus),
    payments: stripe ? createStripePaymentProvider(stripe) : createLocalPaymentProvider(),
    stripe,
    random: Math.random,
    sessionRevocations,
    live,
    jwtSecret,
    now,
    firebaseVerifier:
      config.AUTH_PROVIDER === "firebase"
        ? createFirebaseVerifier({ projectId: config.FIREBASE_PROJECT_ID!, now })
        : undefined,
    webDistDir,
    plugins: options.plugins,
    lifecycle,
    errorReporter,
    tracing,
  });
  appLog = app.log;
  if (!webDistDir) app.log.info("no web build found: serving the API only");
  const scheduler = config.JOBS_ENABLED
    ? createJobScheduler({
        db,
        now,
        log: app.log,
        jobs: [
          notificationJob({
            db,
            provider: smsProvider,
            push,
            now,
            publicUrl: config.PUBLIC_URL,
            log: app.log,
          }),
        ],
      })
    : undefined;

  let closing = false;
  // Readiness fails at once; Fastify stops taking connections, answers what is in flight, then everything closes.
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    lifecycle.draining = true;
    const started = Date.now();
    app.log.info({ signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, "shutting down");
    // The step the shutdown is at, so a timed-out one says what held it.
    let waitingFor = "the job scheduler's run";
    const force = setTimeout(() => {
      // Connections still open (requests in flight, or idle keep-alives), and the event streams.
      app.server.getConnections((_, openConnections) => {
        app.log.error(
          { ms: Date.now() - started, waitingFor, openConnections, liveStreams: live.size() },
          "shutdown timed out: exiting with these still open",
        );
        process.exit(1);
      });
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await scheduler?.stop();
      // Streams never finish on their own: end them so the server's close is not held until the timeout.
      live.endAll();
      waitingFor = "requests in flight";
      // A keep-alive connection whose request was in flight at the close stays open once answered
      // (only idle ones are closed at the close), holding the shutdown to its limit: close each as it idles.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
      await app.close().finally(() => clearInterval(reaper));
      metrics?.close();
      waitingFor = "the database, Redis and the live bus closing";
      await rateLimiter.close();
      await poolBus.close();
      await live.close();
      await sessionRevocations.close();
      await database.close();
      waitingFor = "error reports and traces being sent";
      await errorReporter?.flush(1_000);
      await tracing?.shutdown();
      app.log.info({ ms: Date.now() - started }, "shut down");
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.PORT, host: config.HOST });
  const metrics =
    config.METRICS_PORT === undefined ? undefined : await startMetricsServer(config.METRICS_PORT, config.METRICS_HOST);
  scheduler?.start();
}

/** The VAPID keys from the environment, else (development) the pair generated once into $DATA_DIR. */
async function webPushSender(config: Config): Promise<PushSender> {
  const keys =
    config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY
      ? { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }
      : await devVapidKeys(config.dataDir);
  return createWebPushSender({
    ...keys,
    subject: config.vapidSubject,
    endpoints: pushEndpointPolicyFor(config),
    // Development's local push service lives on this machine; production posts to public addresses only.
    allowPrivateAddresses: !config.isProduction,
  });
}

/** Starts the server; a failure to start ends the process with one line. */
export function runServer(options: StartOptions = {}): void {
  startServer(options).catch((error) => {
    // A second server on the same embedded database: one line naming the directory and the holder.
    console.error(error instanceof DataDirLockedError ? error.message : error);
    process.exit(1);
  });
}

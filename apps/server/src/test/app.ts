import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { seed } from "@quad/db/seed";
import type { Database } from "@quad/db";
import { createTestDatabase } from "@quad/db/testing";
import type { SpanExporter } from "@opentelemetry/sdk-trace-node";
import type { FastifyInstance } from "fastify";
import { buildApp, type BuildAppOptions } from "../app";
import { parseConfig, type Config } from "../env";
import { createDiskStorage, type MediaStorage } from "../media/storage";
import { createSessionRevocations } from "../modules/auth/revocations";
import { createLocalLiveBus, type LiveBus } from "../modules/live/bus";
import { createEventIds } from "../modules/live/event-ids";
import { createLiveHub, type LiveLimits } from "../modules/live/hub";
import { createLocalPaymentProvider } from "../modules/payments/provider";
import { createCandidatePool } from "../modules/rounds/candidate-pool";
import { createEmailSender, outboxEmailProvider, type EmailSender } from "../modules/school-email/email-sender";
import { createOutboxSender } from "../modules/sms/sender";
import { createMemoryRateLimiter } from "../rate-limit/limiter";
import { loadTracing } from "../tracing/tracing";
import type { AppDeps } from "../trpc/context";

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return parseConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    JWT_SECRET: "test-secret-test-secret-test-secret-0123",
    // Production requires one, and not a loopback address; elsewhere the default is the web dev server's.
    PUBLIC_URL: overrides.NODE_ENV === "production" ? "https://quad.test" : "http://localhost:5173",
    SEED_DEMO: "false",
    // Votes arrive at once unless a test says otherwise (the delivery tests set seconds; production refuses it).
    ...(overrides.NODE_ENV === "production" ? {} : { VOTE_DELIVERY_WINDOW_S: "0.001" }),
    ...overrides,
  });
}

/** Real providers for a production configuration (no development ones), as a deployment sets them. */
export const PRODUCTION_PROVIDERS = {
  SMS_PROVIDER: "twilio",
  TWILIO_ACCOUNT_SID: "AC1",
  TWILIO_AUTH_TOKEN: "x",
  TWILIO_FROM: "+12025550100",
  PAYMENT_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: "sk_test_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  STRIPE_PUBLISHABLE_KEY: "pk_test_x",
  EMAIL_PROVIDER: "smtp",
  SMTP_URL: "smtp://mail.example.edu",
} as const;

/**
 * A real app on a fresh database (PGlite, or Postgres when DATABASE_URL is
 * set) with reference data seeded and media in a temporary folder.
 */
export interface TestAppOptions extends Partial<
  Pick<
    BuildAppOptions,
    | "webDistDir"
    | "generateCode"
    | "rateLimiter"
    | "candidatePool"
    | "media"
    | "firebaseVerifier"
    | "random"
    | "payments"
    | "stripe"
    | "sessionRevocations"
    | "logStream"
    | "push"
    | "plugins"
    | "errorReporter"
  >
> {
  env?: Record<string, string>;
  demo?: boolean;
  now?: () => Date;
  email?: EmailSender;
  /** With OTEL_EXPORTER_OTLP_ENDPOINT in `env`: where the spans go instead (an in-memory exporter). */
  spanExporter?: SpanExporter;
  /** Live streams' notices: in-process by default (two "processes" on one Postgres pass a listening one). */
  liveBus?: LiveBus;
  liveLimits?: Partial<LiveLimits>;
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const t = await createTestAppOn(database.db, database.kind, opts);
  await seed(database.db, { demo: opts.demo ?? false, media: t.deps.media });
  return {
    ...t,
    async close() {
      await t.close();
      await database.close();
    },
  };
}

/**
 * The app on a database the caller opened and keeps (a statement-recording
 * driver, or one of two "processes" on one Postgres): closing it closes the
 * app and its media folder, not the database.
 */
export async function createTestAppOn(
  given: Database,
  dbKind: AppDeps["dbKind"],
  opts: TestAppOptions = {},
): Promise<TestApp> {
  const config = testConfig(opts.env);
  // As start.ts does: with tracing on, every service gets the database whose statements are spans.
  const tracing = await loadTracing(config, { exporter: opts.spanExporter });
  const db = tracing ? tracing.observe(given, dbKind) : given;
  const mediaDir = opts.media ? null : await mkdtemp(path.join(tmpdir(), "quad-media-"));
  const media: MediaStorage = opts.media ?? createDiskStorage(mediaDir!);
  const now = opts.now ?? (() => new Date());
  const sessionRevocations = opts.sessionRevocations ?? (await createSessionRevocations({ db, now }));
  const live = createLiveHub({
    db,
    bus: opts.liveBus ?? createLocalLiveBus(),
    eventIds: createEventIds(config.JWT_SECRET!),
    revocations: sessionRevocations,
    now: () => now().getTime(),
    limits: opts.liveLimits,
  });
  const deps: AppDeps = {
    config,
    db,
    dbKind,
    media,
    sms: createOutboxSender(db, now),
    email: opts.email ?? createEmailSender(db, outboxEmailProvider, now),
    rateLimiter: opts.rateLimiter ?? createMemoryRateLimiter(() => now().getTime()),
    candidatePool: opts.candidatePool ?? createCandidatePool(db, () => now().getTime()),
    random: opts.random ?? Math.random,
    // In-process by default: what this app commits is all it hears (several-processes tests pass a listening one).
    sessionRevocations,
    live,
    payments: opts.payments ?? createLocalPaymentProvider(),
    stripe: opts.stripe,
    push: opts.push,
    jwtSecret: config.JWT_SECRET!,
    now,
    generateCode: opts.generateCode,
    firebaseVerifier: opts.firebaseVerifier,
    lifecycle: { draining: false },
    tracing,
  };
  const app = await buildApp({
    ...deps,
    logger: opts.logStream !== undefined,
    logStream: opts.logStream,
    webDistDir: opts.webDistDir,
    plugins: opts.plugins,
    errorReporter: opts.errorReporter,
  });
  await app.ready();
  return {
    app,
    deps,
    async close() {
      // Streams never finish on their own (start.ts ends them the same way on shutdown).
      live.endAll();
      await app.close();
      await live.close();
      await tracing?.shutdown();
      if (mediaDir) await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

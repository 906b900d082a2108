import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { seed } from "@quad/db/seed";
import { createTestDatabase } from "@quad/db/testing";
import type { FastifyInstance } from "fastify";
import { buildApp, type BuildAppOptions } from "../app";
import { parseConfig, type Config } from "../env";
import { createDiskStorage, type MediaStorage } from "../media/storage";
import { createLocalPaymentProvider } from "../modules/payments/provider";
import { createCandidatePool } from "../modules/rounds/candidate-pool";
import { createOutboxSender } from "../modules/sms/sender";
import { createMemoryRateLimiter } from "../rate-limit/limiter";
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
    SEED_DEMO: "false",
    ...overrides,
  });
}

/**
 * A real app on a fresh database (PGlite, or Postgres when DATABASE_URL is
 * set) with reference data seeded and media in a temporary folder.
 */
export interface TestAppOptions extends Partial<Pick<BuildAppOptions, "webDistDir" | "generateCode" | "rateLimiter" | "firebaseVerifier" | "random" | "payments" | "stripe">> {
  env?: Record<string, string>;
  demo?: boolean;
  now?: () => Date;
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(opts.env);
  const database = await createTestDatabase();
  const mediaDir = await mkdtemp(path.join(tmpdir(), "quad-media-"));
  const media: MediaStorage = createDiskStorage(mediaDir);
  await seed(database.db, { demo: opts.demo ?? false, media });
  const now = opts.now ?? (() => new Date());
  const deps: AppDeps = {
    config,
    db: database.db,
    dbKind: database.kind,
    media,
    sms: createOutboxSender(database.db, now),
    rateLimiter: opts.rateLimiter ?? createMemoryRateLimiter(() => now().getTime()),
    candidatePool: createCandidatePool(database.db, () => now().getTime()),
    random: opts.random ?? Math.random,
    payments: opts.payments ?? createLocalPaymentProvider(),
    stripe: opts.stripe,
    jwtSecret: config.JWT_SECRET!,
    now,
    generateCode: opts.generateCode,
    firebaseVerifier: opts.firebaseVerifier,
  };
  const app = await buildApp({ ...deps, logger: false, webDistDir: opts.webDistDir });
  await app.ready();
  return {
    app,
    deps,
    async close() {
      await app.close();
      await database.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}

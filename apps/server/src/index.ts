import path from "node:path";
import { buildApp } from "./app";
import { openDatabase } from "./database";
import { devJwtSecret } from "./dev-secret";
import { loadConfig } from "./env";
import { createDiskStorage } from "./media/storage";
import { createFirebaseVerifier } from "./modules/auth/firebase";
import { createLocalPaymentProvider, createStripeClient, createStripePaymentProvider } from "./modules/payments/provider";
import { createCandidatePool } from "./modules/rounds/candidate-pool";
import { createOutboxSender } from "./modules/sms/sender";
import { createMemoryRateLimiter } from "./rate-limit/limiter";
import { createRedisRateLimiter } from "./rate-limit/redis-limiter";
import { findWebDist } from "./web-dist";

/** Starts one server process: config, database, HTTP. Everything else is in buildApp. */
async function main() {
  const config = loadConfig();
  const jwtSecret = config.JWT_SECRET ?? (await devJwtSecret(config.dataDir));
  const media = createDiskStorage(path.join(config.dataDir, "media"));
  const database = await openDatabase(config, media, (message) => console.log(message));
  const webDistDir = findWebDist(config.WEB_DIST_DIR);
  const now = () => new Date();
  const stripe = config.PAYMENT_PROVIDER === "stripe" ? createStripeClient({ secretKey: config.STRIPE_SECRET_KEY! }) : undefined;
  const rateLimiter = config.REDIS_URL ? createRedisRateLimiter(config.REDIS_URL) : createMemoryRateLimiter();
  const app = await buildApp({
    config,
    db: database.db,
    dbKind: database.kind,
    media,
    sms: createOutboxSender(database.db, now),
    rateLimiter,
    candidatePool: createCandidatePool(database.db),
    payments: stripe ? createStripePaymentProvider(stripe) : createLocalPaymentProvider(),
    stripe,
    random: Math.random,
    jwtSecret,
    now,
    firebaseVerifier:
      config.AUTH_PROVIDER === "firebase" ? createFirebaseVerifier({ projectId: config.FIREBASE_PROJECT_ID!, now }) : undefined,
    webDistDir,
  });
  if (!webDistDir) app.log.info("no web build found: serving the API only");

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await rateLimiter.close();
      await database.close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import type { Database } from "@quad/db";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { Config } from "../env";
import type { MediaStorage } from "../media/storage";
import type { FirebaseTokenVerifier } from "../modules/auth/firebase";
import type { Lifecycle } from "../modules/health/service";
import type { SessionRevocations } from "../modules/auth/revocations";
import type { LiveHub } from "../modules/live/hub";
import { bearerToken } from "../modules/auth/tokens";
import type Stripe from "stripe";
import type { PaymentProvider } from "../modules/payments/provider";
import type { PushSender } from "../modules/push/sender";
import type { CandidatePool } from "../modules/rounds/candidate-pool";
import type { Random } from "../modules/rounds/draw";
import type { EmailSender } from "../modules/school-email/email-sender";
import type { SmsSender } from "../modules/sms/sender";
import type { RateLimiter } from "../rate-limit/limiter";
import type { Tracing } from "../tracing/tracing";
import { addressKey } from "../rate-limit/address";
import { createTokenVerifier } from "./verified-tokens";

/** What every procedure can reach: the app's services, built once at start. */
export interface AppDeps {
  config: Config;
  db: Database;
  dbKind: "postgres" | "pglite";
  media: MediaStorage;
  sms: SmsSender;
  /** School e-mail codes (EMAIL_PROVIDER). */
  email: EmailSender;
  /** Present when Web Push is on (WEB_PUSH, VAPID keys). */
  push?: PushSender;
  rateLimiter: RateLimiter;
  /** Who can be drawn into rounds, cached per school and gender. */
  candidatePool: CandidatePool;
  /** The configured payment provider (local test cards or Stripe). */
  payments: PaymentProvider;
  /** The Stripe client, when PAYMENT_PROVIDER=stripe (its webhooks need it). */
  stripe?: Stripe;
  /** Randomness for draws, injectable so tests are repeatable. */
  random: Random;
  /** Session families signed out recently, kept current across processes: tokens of these are refused. */
  sessionRevocations: SessionRevocations;
  /** The open app's event streams on this process, and the notices that feed them. */
  live: LiveHub;
  /** Signs session tokens and keys code hashes. */
  jwtSecret: string;
  /** The clock, injectable so tests move time instead of waiting. */
  now: () => Date;
  /** Present when AUTH_PROVIDER=firebase. */
  firebaseVerifier?: FirebaseTokenVerifier;
  /** Tests fix sign-in and school e-mail codes; production draws them at random. */
  generateCode?: () => string;
  /** Set to draining on SIGTERM (start.ts): readiness fails while in-flight requests finish. */
  lifecycle?: Lifecycle;
  /** Present when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT): each procedure call runs in its span. */
  tracing?: Tracing;
}

/** Who is calling: set from a valid bearer token. A phone may not have a profile yet. */
export interface Viewer {
  phone: string;
  sessionId: string;
  /** The session family sign-out revokes (tokens signed before families were named have none). */
  familyId?: string;
  /** When the access token expires (ms): a live stream ends then. */
  expiresAtMs?: number;
}

export interface Context extends AppDeps {
  viewer: Viewer | null;
  /** The client address as per-address limits count it (an IPv6 address by its /64). */
  ip: string;
  log: FastifyBaseLogger;
}

/**
 * The request-independent part, for tests that call procedures directly.
 * Every dependency is named rather than spread from `deps`: a spread of the
 * options object buildApp hands on (a rest object of about twenty keys) was
 * 2.7 % of the server's time on /users/me (`pnpm --filter @quad/bench run
 * profile --case me`), where a literal of fixed shape is a few stores.
 * `satisfies Record<keyof AppDeps, unknown>` below makes a dependency added
 * to AppDeps and not named here a type error, optional ones included.
 */
export function createContextInner(
  deps: AppDeps,
  opts: { viewer?: Viewer | null; ip?: string; log: FastifyBaseLogger },
): Context {
  const named = {
    config: deps.config,
    db: deps.db,
    dbKind: deps.dbKind,
    media: deps.media,
    sms: deps.sms,
    email: deps.email,
    push: deps.push,
    rateLimiter: deps.rateLimiter,
    candidatePool: deps.candidatePool,
    payments: deps.payments,
    stripe: deps.stripe,
    random: deps.random,
    sessionRevocations: deps.sessionRevocations,
    live: deps.live,
    jwtSecret: deps.jwtSecret,
    now: deps.now,
    firebaseVerifier: deps.firebaseVerifier,
    generateCode: deps.generateCode,
    lifecycle: deps.lifecycle,
    tracing: deps.tracing,
    viewer: opts.viewer ?? null,
    ip: opts.ip ?? "127.0.0.1",
    log: opts.log,
  } satisfies Record<keyof AppDeps, unknown> & Context;
  return named;
}

/** The context of an HTTP request: the viewer from a valid bearer token, the client address, the request's logger. */
export function requestContextFactory(deps: AppDeps): (request: FastifyRequest) => Promise<Context> {
  const verify = createTokenVerifier(deps.jwtSecret, deps.sessionRevocations);
  return async (request) => {
    const token = bearerToken(request.headers.authorization);
    const viewer = token ? await verify(token, deps.now()) : null;
    return createContextInner(deps, { viewer, ip: addressKey(request.ip), log: request.log });
  };
}

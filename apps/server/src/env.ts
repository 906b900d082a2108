import { existsSync } from "node:fs";
import path from "node:path";
import {
  DEFAULT_ANSWER_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
} from "@quad/db";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { isPushServiceHostPattern } from "./modules/push/endpoint-policy";
import { placeholderReason, weakSecretReason } from "./security/secret-strength";

/**
 * Configuration, read once at start-up and validated (docs/architecture.md
 * "Packages"; every variable in docs/operations.md "Configuration"). This is
 * the only module that reads process.env.
 */

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const emptyAsUndefined = (v: unknown) => (v === "" ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema.optional());
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const VOTE_DELIVERY_WINDOW_DEFAULT_S = 3600;
const VOTE_DELIVERY_WINDOW_MIN_PRODUCTION_S = 600;
/** A duration in whole milliseconds, at least `min`, at most an hour. */
const milliseconds = (fallback: number, min: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number<number>().int().min(min).max(3_600_000).default(fallback));

/** OpenTelemetry's standard samplers (OTEL_TRACES_SAMPLER); the ratio ones read OTEL_TRACES_SAMPLER_ARG. */
const TRACE_SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
    PORT: z.coerce.number<number>().int().min(0).max(65535).default(3000),
    /** Prometheus metrics on their own port (metrics/server.ts); off when unset. */
    METRICS_PORT: optional(z.coerce.number<number>().int().min(0).max(65535)),
    /** Where the metrics port listens: loopback unless a scraper on another machine needs it. */
    METRICS_HOST: z.string().min(1).default("127.0.0.1"),
    HOST: z.string().default("0.0.0.0"),
    /**
     * A primary and its standby are both listed (deploy/ha/README.md): only with
     * target_session_attrs=read-write does every connection go to the primary.
     */
    DATABASE_URL: optional(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
        .refine((url) => !/^[^/]*\/\/[^/?]*,/.test(url) || /[?&]target_session_attrs=read-write(&|$)/.test(url), {
          error: "lists several hosts: add ?target_session_attrs=read-write so that only the primary is written to",
        }),
    ),
    /**
     * Connections this process opens to Postgres. Queries beyond it are pipelined on open
     * connections: about twice Postgres' cores across all processes costs Postgres less CPU
     * per query than more connections competing for those cores (README "Performance").
     */
    DATABASE_POOL_SIZE: z.preprocess(
      emptyAsUndefined,
      z.coerce.number<number>().int().min(1).max(100).default(DEFAULT_POOL_SIZE),
    ),
    /** One attempt to open a Postgres connection; while Postgres is unreachable, requests fail (503) after about this long. */
    DATABASE_CONNECT_TIMEOUT_MS: milliseconds(DEFAULT_CONNECT_TIMEOUT_MS, 100),
    /** Postgres cancels any one statement that runs longer (0: no limit); the request gets a 503. */
    DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(DEFAULT_STATEMENT_TIMEOUT_MS, 0),
    /**
     * A query unanswered this long makes the server ask Postgres for a new connection's answer
     * (within DATABASE_CONNECT_TIMEOUT_MS); without one, the connection is dropped and the request
     * gets 503 (a network partition). 0: never checked.
     */
    DATABASE_ANSWER_TIMEOUT_MS: milliseconds(DEFAULT_ANSWER_TIMEOUT_MS, 0),
    DATA_DIR: z.string().min(1).default(".data"),
    /** A request's headers must have arrived within this; else 408 and the connection is closed. */
    HTTP_HEADERS_TIMEOUT_MS: milliseconds(DEFAULT_HEADERS_TIMEOUT_MS, 100),
    /** The whole request, headers and body, must have arrived within this (a 10 MB photo at about 1.5 Mbit/s). */
    HTTP_REQUEST_TIMEOUT_MS: milliseconds(DEFAULT_REQUEST_TIMEOUT_MS, 100),
    /** On SIGTERM: readiness fails at once, in-flight requests finish, and the process exits within this. */
    SHUTDOWN_TIMEOUT_MS: milliseconds(10_000, 100),
    AUTH_PROVIDER: z.enum(["local", "firebase"]).default("local"),
    SMS_PROVIDER: z.enum(["outbox", "twilio"]).default("outbox"),
    PAYMENT_PROVIDER: z.enum(["local", "stripe"]).default("local"),
    JWT_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
    /** Required in production: links in texts, the OpenAPI document's server, Twilio's signed webhook URL. */
    PUBLIC_URL: optional(z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })),
    SEED_DEMO: optional(bool),
    REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, "must be a redis:// URL")),
    /** Put before every rate-limit key in Redis, so several deployments can share one Redis. */
    REDIS_KEY_PREFIX: z.string().min(1).max(100).default("quad:rl:"),
    /** A Redis command unanswered by then counts as Redis being away (limits fall back to per process). */
    REDIS_COMMAND_TIMEOUT_MS: milliseconds(500, 10),
    /**
     * Sign-in codes the whole app may text in an hour (shared through REDIS_URL, else per
     * process): what SMS pumping can cost at most. Past it, sending answers 429 and warns once.
     */
    SMS_HOURLY_BUDGET: z.preprocess(
      emptyAsUndefined,
      z.coerce.number<number>().int().min(1).max(1_000_000).default(2000),
    ),
    /** Unexpected errors are also sent, scrubbed of personal data, to this Sentry project; off when unset. */
    SENTRY_DSN: optional(z.url({ protocol: /^https?$/, error: "must be a Sentry DSN (https://key@host/project)" })),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Lets production run the outbox SMS and the local payments (demo deployments); /api/dev never is. */
    ALLOW_DEV_PROVIDERS: optional(bool),
    WEB_DIST_DIR: optional(z.string()),
    /**
     * Behind a load balancer: take the client address from X-Forwarded-For. Off, anyone could fake it.
     * `true` trusts whoever connects; a comma-separated list of addresses or CIDR ranges (the proxies')
     * trusts only those, which production needs when HOST is reachable from elsewhere.
     */
    TRUST_PROXY: optional(
      z.union([
        bool,
        z
          .string()
          .transform((v) => v.split(",").map((entry) => entry.trim()))
          .refine((entries) => entries.every(isAddressOrRange), {
            message: "must be true, false, or the proxies' addresses or CIDR ranges, comma-separated",
          }),
      ]),
    ),
    FIREBASE_PROJECT_ID: optional(z.string()),
    FIREBASE_API_KEY: optional(z.string()),
    FIREBASE_AUTH_DOMAIN: optional(z.string()),
    FIREBASE_APP_ID: optional(z.string()),
    STRIPE_SECRET_KEY: optional(z.string()),
    STRIPE_WEBHOOK_SECRET: optional(z.string()),
    STRIPE_PUBLISHABLE_KEY: optional(z.string()),
    TWILIO_ACCOUNT_SID: optional(z.string()),
    TWILIO_AUTH_TOKEN: optional(z.string()),
    TWILIO_FROM: optional(z.string()),
    /** Twilio's API address; tests and regional edges point it elsewhere. */
    TWILIO_API_BASE_URL: z.url().default("https://api.twilio.com"),
    /** Where school e-mail codes go: stored for /api/dev/email-outbox (development), or sent over SMTP. */
    EMAIL_PROVIDER: z.enum(["outbox", "smtp"]).default("outbox"),
    /** The SMTP server with its credentials, e.g. smtps://user:password@smtp.example.com:465. */
    SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")),
    /** The sender of Quad's e-mails, e.g. "Quad <no-reply@quad.example>". */
    EMAIL_FROM: z.string().min(3).default("Quad <no-reply@localhost>"),
    /**
     * Vote notices by Web Push. Unset: on outside production, and in production when the VAPID
     * keys are set. On in production, the keys are required (development generates them into DATA_DIR).
     */
    WEB_PUSH: optional(bool),
    /** The VAPID key pair (base64url, as `web-push generate-vapid-keys` prints them) that signs pushes. */
    VAPID_PUBLIC_KEY: optional(
      z.string().regex(/^[A-Za-z0-9_-]{87}$/, "must be a base64url P-256 public key (87 characters)"),
    ),
    VAPID_PRIVATE_KEY: optional(
      z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be a base64url P-256 private key (43 characters)"),
    ),
    /** Who push services contact about this sender: a mailto: or https: URL. Unset: PUBLIC_URL when https. */
    VAPID_SUBJECT: optional(z.string().regex(/^(mailto:|https:\/\/)\S+$/, "must be a mailto: or https:// URL")),
    /**
     * Push services added to the browsers' own (FCM, Mozilla, Apple, Windows): comma-separated
     * host names, `*.name` for any name below one. Production stores and posts to no other.
     */
    PUSH_SERVICE_HOSTS: optional(
      z
        .string()
        .transform((v) => v.split(",").map((host) => host.trim().toLowerCase()))
        .refine((hosts) => hosts.every(isPushServiceHostPattern), {
          message: "must be host names (or *.name), comma-separated, each with a dot and none an address",
        }),
    ),
    /**
     * A vote reaches its recipient at a random moment within this many seconds after it is cast
     * (docs/product.md "Received votes and unlocks"). Production refuses less than ten minutes: a shorter
     * window lets friends who compare inboxes name a voter by when the cards came.
     */
    VOTE_DELIVERY_WINDOW_S: z.preprocess(
      emptyAsUndefined,
      z.coerce.number<number>().positive().max(86_400).default(VOTE_DELIVERY_WINDOW_DEFAULT_S),
    ),
    /** Runs the 10-minute job's scheduler in this process (notices, sending, purge); one run per interval across processes. */
    JOBS_ENABLED: z.preprocess(emptyAsUndefined, bool.default(true)),
    /**
     * Traces (tracing/): sent over OTLP/HTTP to this collector, e.g. http://127.0.0.1:4318 (spans go to
     * its /v1/traces). Unset: off, and the tracing SDK is not even loaded.
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: optional(
      z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL (OTLP over HTTP)" }),
    ),
    /** The service the spans are from, as the tracing backend lists it. */
    OTEL_SERVICE_NAME: z.preprocess(emptyAsUndefined, z.string().min(1).max(200).default("quad")),
    /** Which requests are traced: OpenTelemetry's standard samplers (a trace id ratio keeps its cost down). */
    OTEL_TRACES_SAMPLER: z.preprocess(emptyAsUndefined, z.enum(TRACE_SAMPLERS).default("parentbased_always_on")),
    /** The ratio of traces a `traceidratio` sampler keeps, 0 to 1. */
    OTEL_TRACES_SAMPLER_ARG: z.preprocess(emptyAsUndefined, z.coerce.number<number>().min(0).max(1).default(1)),
  })
  .superRefine((env, ctx) => {
    const need = (name: keyof typeof env, when: string) => {
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: `is required ${when}` });
    };
    if (env.AUTH_PROVIDER === "firebase") {
      need("FIREBASE_PROJECT_ID", "when AUTH_PROVIDER=firebase");
      need("FIREBASE_API_KEY", "when AUTH_PROVIDER=firebase");
    }
    if (env.PAYMENT_PROVIDER === "stripe") {
      need("STRIPE_SECRET_KEY", "when PAYMENT_PROVIDER=stripe");
      need("STRIPE_WEBHOOK_SECRET", "when PAYMENT_PROVIDER=stripe");
      // Without it the web client cannot load Stripe.js, and every checkout would fail in the browser.
      need("STRIPE_PUBLISHABLE_KEY", "when PAYMENT_PROVIDER=stripe");
    }
    if (env.SMS_PROVIDER === "twilio") {
      need("TWILIO_ACCOUNT_SID", "when SMS_PROVIDER=twilio");
      need("TWILIO_AUTH_TOKEN", "when SMS_PROVIDER=twilio");
      need("TWILIO_FROM", "when SMS_PROVIDER=twilio");
    }
    if (env.EMAIL_PROVIDER === "smtp") need("SMTP_URL", "when EMAIL_PROVIDER=smtp");
    if ((env.VAPID_PUBLIC_KEY === undefined) !== (env.VAPID_PRIVATE_KEY === undefined)) {
      need(env.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY", "with its other half");
    }
    if (env.NODE_ENV === "production") {
      need("JWT_SECRET", "in production");
      need("PUBLIC_URL", "in production (the address students open, e.g. https://quad.example.edu)");
      if (env.WEB_PUSH) {
        need("VAPID_PUBLIC_KEY", "in production when WEB_PUSH is on");
        need("VAPID_PRIVATE_KEY", "in production when WEB_PUSH is on");
      }
      if (env.VOTE_DELIVERY_WINDOW_S < VOTE_DELIVERY_WINDOW_MIN_PRODUCTION_S) {
        ctx.addIssue({
          code: "custom",
          path: ["VOTE_DELIVERY_WINDOW_S"],
          message: `must be at least ${VOTE_DELIVERY_WINDOW_MIN_PRODUCTION_S} in production (a shorter window lets friends name a voter by when cards arrive)`,
        });
      }
      const placeholder = env.JWT_SECRET && placeholderReason(env.JWT_SECRET);
      if (placeholder) ctx.addIssue({ code: "custom", path: ["JWT_SECRET"], message: placeholder });
      if (!env.ALLOW_DEV_PROVIDERS) {
        const refuse = (name: string, value: string) =>
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: `must not be ${value} in production (set ALLOW_DEV_PROVIDERS=true to allow it)`,
          });
        if (env.SMS_PROVIDER === "outbox") refuse("SMS_PROVIDER", "outbox");
        if (env.EMAIL_PROVIDER === "outbox") refuse("EMAIL_PROVIDER", "outbox");
        if (env.PAYMENT_PROVIDER === "local") refuse("PAYMENT_PROVIDER", "local");
        if (env.PUBLIC_URL && isLoopbackUrl(env.PUBLIC_URL)) refuse("PUBLIC_URL", "a loopback address");
      }
      // Whoever reaches a public bind could name any address in X-Forwarded-For, and so get past every per-address limit.
      if (env.TRUST_PROXY === true && !isPrivateBind(env.HOST))
        ctx.addIssue({
          code: "custom",
          path: ["TRUST_PROXY"],
          message: `must list the proxies' addresses (e.g. TRUST_PROXY=127.0.0.1) when HOST=${env.HOST} may be reached from other networks; or bind HOST to loopback or a private address`,
        });
    }
    // Node measures the headers within the request's time: a longer headers deadline would never apply.
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["HTTP_HEADERS_TIMEOUT_MS"],
        message: "must not be longer than HTTP_REQUEST_TIMEOUT_MS",
      });
    }
  });

/**
 * Every variable the server reads. Turborepo runs `pnpm dev` and the tests in
 * strict env mode, which hides any variable turbo.json does not declare; a
 * test holds this list against turbo.json so none is silently dropped.
 */
export const ENV_VARIABLE_NAMES = Object.keys(EnvSchema.shape) as (keyof typeof EnvSchema.shape)[];

export type Env = z.output<typeof EnvSchema>;

export interface Config extends Omit<Env, "PUBLIC_URL"> {
  /** The configured address; in development and tests the web dev server's when unset. */
  PUBLIC_URL: string;
  isProduction: boolean;
  /** Demo students are seeded on an empty database. */
  seedDemo: boolean;
  /**
   * /api/dev is served and unsigned SMS webhooks are accepted: development and
   * tests only, whatever ALLOW_DEV_PROVIDERS says (the outbox lists sign-in codes).
   */
  devRoutesEnabled: boolean;
  /** Absolute: relative values are taken from the repository root (or the working directory). */
  dataDir: string;
  /** Vote notices go by Web Push to students who turned it on for a device. */
  webPushEnabled: boolean;
  /** Push service hosts production accepts besides the browsers' own (PUSH_SERVICE_HOSTS). */
  pushServiceHosts: string[];
  /** VAPID_SUBJECT, else PUBLIC_URL when it is https, else a placeholder push services accept from development. */
  vapidSubject: string;
  /** METRICS_PORT is set: requests, limits and outboxes are counted (metrics/). */
  metricsEnabled: boolean;
  /** OTEL_EXPORTER_OTLP_ENDPOINT is set: requests, procedures and statements are traced (tracing/). */
  tracingEnabled: boolean;
}

/** The domain Firebase Auth runs its frames on: the configured one, else the project's default. */
export function firebaseAuthDomain(env: Pick<Env, "FIREBASE_AUTH_DOMAIN" | "FIREBASE_PROJECT_ID">): string {
  return env.FIREBASE_AUTH_DOMAIN ?? `${env.FIREBASE_PROJECT_ID}.firebaseapp.com`;
}

export class ConfigError extends Error {}

/**
 * The names the common Linux hosts files give the loopback addresses besides localhost
 * (Debian and Ubuntu: ip6-localhost, ip6-loopback; Red Hat and Fedora: localhost.localdomain,
 * localhost4, localhost6 and their .localdomain4/6 forms): a student's machine answers them itself.
 */
const HOSTS_FILE_LOOPBACK_NAMES = new Set([
  "localhost.localdomain",
  "localhost4",
  "localhost4.localdomain4",
  "localhost6",
  "localhost6.localdomain6",
  "ip6-localhost",
  "ip6-loopback",
]);

/** An IP address or a CIDR range (TRUST_PROXY's list). */
function isAddressOrRange(entry: string): boolean {
  if (ipaddr.isValid(entry)) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/** Ranges only this machine or its private network reach. */
const PRIVATE_RANGES = new Set(["loopback", "private", "uniqueLocal", "linkLocal"]);

/**
 * HOST is loopback or a private address: only this machine or its private
 * network connects. Every interface (0.0.0.0, ::), a public address, or a
 * name other than localhost is not.
 */
function isPrivateBind(host: string): boolean {
  if (host === "localhost") return true;
  if (!ipaddr.isValid(host)) return false;
  return PRIVATE_RANGES.has(ipaddr.process(host).range());
}

/**
 * localhost, *.localhost, a hosts file's other loopback names, or an address literal in a loopback or
 * unspecified range (127/8, 0.0.0.0, ::1, ::, and IPv4 inside IPv6 as ::ffff:127.0.0.1): no student's
 * browser reaches the server there.
 */
function isLoopbackUrl(url: string): boolean {
  // Trailing dots, however many, are no part of the name ("localhost.." is no public host).
  const host = new URL(url).hostname.replace(/\.+$/, "").replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost" || host.endsWith(".localhost") || HOSTS_FILE_LOOPBACK_NAMES.has(host)) return true;
  if (!ipaddr.isValid(host)) return false;
  const address = ipaddr.process(host);
  const embedded =
    address.kind() === "ipv6" &&
    address
      .toByteArray()
      .slice(0, 12)
      .every((byte) => byte === 0);
  return embedded || ["loopback", "unspecified"].includes(address.range());
}

/** PUBLIC_URL outside production when unset: the web dev server. */
const DEV_PUBLIC_URL = "http://localhost:5173";

/** Parses an environment; throws ConfigError with one line naming the variable. */
export function parseConfig(source: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = issue.path.join(".") || "environment";
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}`);
  }
  const env = result.data;
  const isProduction = env.NODE_ENV === "production";
  const publicUrl = env.PUBLIC_URL ?? DEV_PUBLIC_URL;
  return {
    ...env,
    PUBLIC_URL: publicUrl,
    isProduction,
    seedDemo: env.SEED_DEMO ?? !isProduction,
    devRoutesEnabled: !isProduction,
    dataDir: path.resolve(findRepoRoot(cwd) ?? cwd, env.DATA_DIR),
    pushServiceHosts: env.PUSH_SERVICE_HOSTS ?? [],
    webPushEnabled: env.WEB_PUSH ?? (!isProduction || env.VAPID_PUBLIC_KEY !== undefined),
    vapidSubject: env.VAPID_SUBJECT ?? (publicUrl.startsWith("https://") ? publicUrl : "mailto:push@quad.invalid"),
    metricsEnabled: env.METRICS_PORT !== undefined,
    tracingEnabled: env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined,
  };
}

/**
 * parseConfig, then in production the secret's strength, which loads a
 * password-strength estimator (about 0.1 s): only a production start pays it.
 */
export async function readConfig(source: Record<string, string | undefined>, cwd = process.cwd()): Promise<Config> {
  const config = parseConfig(source, cwd);
  const weak = config.isProduction && config.JWT_SECRET ? await weakSecretReason(config.JWT_SECRET) : undefined;
  if (weak) throw new ConfigError(`Invalid configuration: JWT_SECRET ${weak}`);
  return config;
}

/** Reads process.env once; on a bad value prints one clear line and exits. */
export async function loadConfig(): Promise<Config> {
  try {
    return await readConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

function findRepoRoot(from: string): string | undefined {
  let dir = path.resolve(from);
  for (;;) {
    if (existsSync(path.join(dir, "pnpm-workspace.yaml"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

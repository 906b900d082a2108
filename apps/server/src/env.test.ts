import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig, readConfig } from "./env";
import { PRODUCTION_PROVIDERS } from "./test/app";

const PUBLIC_URL = "https://quad.example.edu";

/** 48 random bytes, as `openssl rand -base64 48` gives (base64url here). */
const secret = "aXLP6TM1c3Rrs9zguWYrcJ0otpwKcn0W5D15PLlv6s7QvJn21g6iTs5Kgj-OsRic";

describe("configuration", () => {
  it("has working development defaults", () => {
    const config = parseConfig({ NODE_ENV: "development" }, "/tmp");
    expect(config).toMatchObject({
      PORT: 3000,
      AUTH_PROVIDER: "local",
      SMS_PROVIDER: "outbox",
      PAYMENT_PROVIDER: "local",
      PUBLIC_URL: "http://localhost:5173",
      seedDemo: true,
      devRoutesEnabled: true,
      isProduction: false,
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("defaults to production, where demo data is off", () => {
    const config = parseConfig({ JWT_SECRET: secret, PUBLIC_URL, ALLOW_DEV_PROVIDERS: "true" }, "/tmp");
    expect(config.isProduction).toBe(true);
    expect(config.seedDemo).toBe(false);
  });

  it("takes a multi-host DATABASE_URL that writes to the primary only", () => {
    const url = "postgres://quad@db1:5432,db2:5432/quad?sslmode=require&target_session_attrs=read-write";
    expect(parseConfig({ NODE_ENV: "development", DATABASE_URL: url }).DATABASE_URL).toBe(url);
  });

  it("lets SEED_DEMO override the default either way", () => {
    expect(parseConfig({ NODE_ENV: "development", SEED_DEMO: "false" }).seedDemo).toBe(false);
    expect(parseConfig({ JWT_SECRET: secret, PUBLIC_URL, ALLOW_DEV_PROVIDERS: "1", SEED_DEMO: "true" }).seedDemo).toBe(
      true,
    );
  });

  it.each([
    [{ PORT: "eighty" }, /^Invalid configuration: PORT /],
    [{ PORT: "70000" }, /^Invalid configuration: PORT /],
    [{ AUTH_PROVIDER: "magic" }, /^Invalid configuration: AUTH_PROVIDER /],
    [{ DATABASE_URL: "mysql://x" }, /^Invalid configuration: DATABASE_URL must be a postgres:\/\/ URL$/],
    [
      { DATABASE_URL: "postgres://quad@db1:5432,db2:5432/quad" },
      /^Invalid configuration: DATABASE_URL lists several hosts: add \?target_session_attrs=read-write/,
    ],
    [{ SEED_DEMO: "yes" }, /^Invalid configuration: SEED_DEMO /],
    [{ JWT_SECRET: "short" }, /^Invalid configuration: JWT_SECRET must be at least 32 characters$/],
    [
      { PAYMENT_PROVIDER: "stripe" },
      /^Invalid configuration: STRIPE_SECRET_KEY is required when PAYMENT_PROVIDER=stripe$/,
    ],
    [
      { PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "sk", STRIPE_WEBHOOK_SECRET: "wh" },
      /^Invalid configuration: STRIPE_PUBLISHABLE_KEY is required when PAYMENT_PROVIDER=stripe$/,
    ],
    [{ AUTH_PROVIDER: "firebase" }, /^Invalid configuration: FIREBASE_PROJECT_ID is required/],
    [{ SMS_PROVIDER: "twilio" }, /^Invalid configuration: TWILIO_ACCOUNT_SID is required/],
    [{ EMAIL_PROVIDER: "smtp" }, /^Invalid configuration: SMTP_URL is required when EMAIL_PROVIDER=smtp$/],
    [
      { EMAIL_PROVIDER: "smtp", SMTP_URL: "http://mail.example.com" },
      /^Invalid configuration: SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL$/,
    ],
    [{ EMAIL_PROVIDER: "pigeon" }, /^Invalid configuration: EMAIL_PROVIDER /],
  ])("refuses %o with one line naming the variable", (env, message) => {
    expect(() => parseConfig({ NODE_ENV: "development", ...env })).toThrow(message);
  });

  it("adds PUSH_SERVICE_HOSTS to the push services, as host names only", () => {
    expect(parseConfig({ NODE_ENV: "development" }).pushServiceHosts).toEqual([]);
    expect(
      parseConfig({ NODE_ENV: "development", PUSH_SERVICE_HOSTS: "Push.Example.net, *.push.example.org" })
        .pushServiceHosts,
    ).toEqual(["push.example.net", "*.push.example.org"]);
    for (const bad of [
      "localhost",
      "*.com",
      "127.0.0.1",
      "[::1]",
      "push.example.net:8443",
      "https://push.example.net",
      "",
    ]) {
      expect(() => parseConfig({ NODE_ENV: "development", PUSH_SERVICE_HOSTS: `push.example.net,${bad}` })).toThrow(
        /^Invalid configuration: PUSH_SERVICE_HOSTS must be host names/,
      );
    }
  });

  it("delivers votes within an hour by default; production refuses a window under ten minutes, development takes any", () => {
    const production = { NODE_ENV: "production", PUBLIC_URL, JWT_SECRET: secret, ALLOW_DEV_PROVIDERS: "true" };
    expect(parseConfig(production).VOTE_DELIVERY_WINDOW_S).toBe(3600);
    expect(parseConfig({ ...production, VOTE_DELIVERY_WINDOW_S: "600" }).VOTE_DELIVERY_WINDOW_S).toBe(600);
    expect(() => parseConfig({ ...production, VOTE_DELIVERY_WINDOW_S: "599" })).toThrow(
      /^Invalid configuration: VOTE_DELIVERY_WINDOW_S must be at least 600 in production/,
    );
    expect(parseConfig({ NODE_ENV: "development", VOTE_DELIVERY_WINDOW_S: "0.5" }).VOTE_DELIVERY_WINDOW_S).toBe(0.5);
    expect(() => parseConfig({ NODE_ENV: "development", VOTE_DELIVERY_WINDOW_S: "0" })).toThrow(
      /VOTE_DELIVERY_WINDOW_S/,
    );
  });

  it("turns Web Push on in development, and in production only with VAPID keys, which WEB_PUSH=true requires", () => {
    const vapid = {
      VAPID_PUBLIC_KEY: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
      VAPID_PRIVATE_KEY: "tUxbf-8Ewz7-V0V3t2-fULdNZsKyVPcnQUZ3V8MLvhI",
    };
    const production = { NODE_ENV: "production", PUBLIC_URL, JWT_SECRET: secret, ALLOW_DEV_PROVIDERS: "true" };
    expect(parseConfig({ NODE_ENV: "development" }).webPushEnabled).toBe(true);
    expect(parseConfig(production).webPushEnabled).toBe(false);
    expect(parseConfig({ ...production, ...vapid }).webPushEnabled).toBe(true);
    expect(() => parseConfig({ ...production, WEB_PUSH: "true" })).toThrow(
      "Invalid configuration: VAPID_PUBLIC_KEY is required in production when WEB_PUSH is on",
    );
    expect(() => parseConfig({ NODE_ENV: "development", VAPID_PUBLIC_KEY: vapid.VAPID_PUBLIC_KEY })).toThrow(
      "Invalid configuration: VAPID_PRIVATE_KEY is required with its other half",
    );
    expect(() => parseConfig({ NODE_ENV: "development", VAPID_SUBJECT: "http://quad.example" })).toThrow(
      "Invalid configuration: VAPID_SUBJECT must be a mailto: or https:// URL",
    );
    expect(parseConfig({ NODE_ENV: "development" }).vapidSubject).toBe("mailto:push@quad.invalid");
    expect(parseConfig({ NODE_ENV: "development", PUBLIC_URL: "https://quad.example" }).vapidSubject).toBe(
      "https://quad.example",
    );
  });

  it("requires PUBLIC_URL in production (the OpenAPI document, links in texts and Twilio's signature name it)", () => {
    expect(() => parseConfig({ NODE_ENV: "production", JWT_SECRET: secret, ALLOW_DEV_PROVIDERS: "true" })).toThrow(
      /^Invalid configuration: PUBLIC_URL is required in production/,
    );
    expect(parseConfig({ NODE_ENV: "development" }).PUBLIC_URL).toBe("http://localhost:5173");
  });

  it.each(["javascript:alert(1)", "ftp://quad.example.edu", "mailto:ops@quad.example.edu"])(
    "refuses PUBLIC_URL=%s: an address students open is http or https",
    (value) => {
      expect(() => parseConfig({ NODE_ENV: "development", PUBLIC_URL: value })).toThrow(
        /^Invalid configuration: PUBLIC_URL must be an http:\/\/ or https:\/\/ URL$/,
      );
    },
  );

  it.each(["http://localhost:3000", "http://127.0.0.1", "https://app.localhost/", "http://[::1]:8080"])(
    "refuses PUBLIC_URL=%s in production, unless dev providers are allowed (a demo on one machine)",
    (value) => {
      const production = { NODE_ENV: "production", PUBLIC_URL: value, JWT_SECRET: secret };
      expect(() => parseConfig({ ...production, ...PRODUCTION_PROVIDERS })).toThrow(
        /^Invalid configuration: PUBLIC_URL must not be a loopback address in production/,
      );
      expect(parseConfig({ ...production, ALLOW_DEV_PROVIDERS: "true" }).PUBLIC_URL).toBe(value);
    },
  );

  it("requires a JWT secret in production", () => {
    expect(() => parseConfig({ NODE_ENV: "production", PUBLIC_URL, ALLOW_DEV_PROVIDERS: "true" })).toThrow(
      "Invalid configuration: JWT_SECRET is required in production",
    );
  });

  it("refuses the outbox SMS and local payments in production unless allowed", () => {
    expect(() => parseConfig({ NODE_ENV: "production", PUBLIC_URL, JWT_SECRET: secret })).toThrow(
      /^Invalid configuration: SMS_PROVIDER must not be outbox in production/,
    );
    const allowed = parseConfig({
      NODE_ENV: "production",
      PUBLIC_URL,
      JWT_SECRET: secret,
      ALLOW_DEV_PROVIDERS: "true",
    });
    expect(allowed).toMatchObject({ SMS_PROVIDER: "outbox", PAYMENT_PROVIDER: "local", EMAIL_PROVIDER: "outbox" });
  });

  it("refuses the outbox e-mail in production unless allowed", () => {
    const real = {
      NODE_ENV: "production",
      PUBLIC_URL,
      JWT_SECRET: secret,
      SMS_PROVIDER: "twilio",
      TWILIO_ACCOUNT_SID: "AC1",
      TWILIO_AUTH_TOKEN: "t",
      TWILIO_FROM: "+12025550100",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk",
      STRIPE_WEBHOOK_SECRET: "wh",
      STRIPE_PUBLISHABLE_KEY: "pk",
    };
    expect(() => parseConfig(real)).toThrow(/^Invalid configuration: EMAIL_PROVIDER must not be outbox in production/);
    expect(
      parseConfig({ ...real, EMAIL_PROVIDER: "smtp", SMTP_URL: "smtps://quad:pw@smtp.example.com" }),
    ).toMatchObject({ EMAIL_PROVIDER: "smtp" });
  });

  it("never serves /api/dev in production, whatever ALLOW_DEV_PROVIDERS says", () => {
    for (const allow of ["true", "1"]) {
      const config = parseConfig({
        NODE_ENV: "production",
        PUBLIC_URL,
        JWT_SECRET: secret,
        ALLOW_DEV_PROVIDERS: allow,
      });
      expect(config.devRoutesEnabled, allow).toBe(false);
    }
    expect(parseConfig({ NODE_ENV: "development" }).devRoutesEnabled).toBe(true);
    expect(parseConfig({ NODE_ENV: "test" }).devRoutesEnabled).toBe(true);
  });

  it("refuses TRUST_PROXY=true on a public bind in production, and takes the proxies' addresses instead", () => {
    const production = { NODE_ENV: "production", PUBLIC_URL, JWT_SECRET: secret, ALLOW_DEV_PROVIDERS: "true" };
    for (const HOST of [undefined, "0.0.0.0", "::", "203.0.113.5", "quad.example.edu"]) {
      expect(() => parseConfig({ ...production, TRUST_PROXY: "true", ...(HOST && { HOST }) }), HOST).toThrow(
        /^Invalid configuration: TRUST_PROXY must list the proxies' addresses \(e\.g\. TRUST_PROXY=127\.0\.0\.1\) when HOST=/,
      );
    }
    for (const HOST of ["127.0.0.1", "localhost", "::1", "10.0.0.4", "192.168.1.20", "fd00::5"]) {
      expect(parseConfig({ ...production, TRUST_PROXY: "true", HOST }).TRUST_PROXY, HOST).toBe(true);
    }
    const listed = parseConfig({ ...production, TRUST_PROXY: "127.0.0.1, 172.16.91.0/24" });
    expect(listed.TRUST_PROXY).toEqual(["127.0.0.1", "172.16.91.0/24"]);
    expect(() => parseConfig({ ...production, TRUST_PROXY: "yes" })).toThrow(
      /^Invalid configuration: TRUST_PROXY must be true, false, or the proxies' addresses/,
    );
    // Development and tests bind where they like.
    expect(parseConfig({ NODE_ENV: "development", TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(parseConfig({ ...production, TRUST_PROXY: "false" }).TRUST_PROXY).toBe(false);
  });

  it("accepts the guide's /etc/quad.env as the guide writes and loads it (set -a; . /etc/quad.env)", async () => {
    const operations = readFileSync(new URL("../../../docs/operations.md", import.meta.url), "utf8");
    const script = /\n(umask 077\ncat > \/etc\/quad\.env <<ENV\n[\s\S]*?\nENV)\n/.exec(operations)![1]!;
    const dir = await mkdtemp(path.join(tmpdir(), "quad-env-"));
    try {
      const file = path.join(dir, "quad.env");
      const loaded = spawnSync(
        "bash",
        ["-ec", `${script.replace("/etc/quad.env", file)}\nenv -i bash -ec 'set -a; . "$0"; env -0' ${file}`],
        { encoding: "utf8" },
      );
      expect(loaded.status, loaded.stderr).toBe(0);
      const env = Object.fromEntries(
        loaded.stdout
          .split("\0")
          .filter(Boolean)
          .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
      );
      expect(env.HOST).toBe("127.0.0.1");
      // Quoted in the file, as the guide says: unquoted, its < and > stop the shell at that line.
      expect(env.EMAIL_FROM).toBe("Quad <no-reply@quad.example.edu>");
      expect(parseConfig({ ...env, ALLOW_DEV_PROVIDERS: "true" })).toMatchObject({
        TRUST_PROXY: true,
        HOST: "127.0.0.1",
        EMAIL_FROM: "Quad <no-reply@quad.example.edu>",
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("resolves a relative DATA_DIR against the repository root", () => {
    const config = parseConfig({ NODE_ENV: "development", DATA_DIR: "somewhere" }, process.cwd());
    expect(config.dataDir).toMatch(/\/somewhere$/);
    expect(config.dataDir).not.toContain("apps/server");
  });
});

describe("the token-signing secret in production", () => {
  const production = (JWT_SECRET: string) =>
    parseConfig({ NODE_ENV: "production", PUBLIC_URL, ALLOW_DEV_PROVIDERS: "true", JWT_SECRET });
  /** With the strength estimate, as a production start reads it. */
  const readProduction = (JWT_SECRET: string) =>
    readConfig({ NODE_ENV: "production", PUBLIC_URL, ALLOW_DEV_PROVIDERS: "true", JWT_SECRET });

  it.each([
    // The fallback docker-compose.yml used to start with: tokens forged with it were accepted.
    ["change-me-change-me-change-me-change-me", "changeme"],
    ["CHANGE_ME_please_0a8f7c2e9b4d61f3a7c9e2b5d8f1a4c6", "changeme"],
    ["dev-secret-dev-secret-dev-secret-dev-secret", "secret"],
    ["test-secret-test-secret-test-secret-0123", "secret"],
    ["your-super-secret-jwt-key-goes-here-1234567890", "secret"],
    ["replace-me-with-a-long-random-string-9f8e7d6c5b4a", "replaceme"],
    ["placeholder-value-for-the-jwt-signing-key-0123456", "placeholder"],
  ])("refuses the placeholder %s with one line", (value, word) => {
    expect(() => production(value)).toThrow(
      new RegExp(
        `^Invalid configuration: JWT_SECRET is a placeholder \\(it contains "${word}"\\); generate one with: openssl rand -base64 48$`,
      ),
    );
  });

  it.each([
    ["one character", "a".repeat(40)],
    ["two characters", "ab".repeat(20)],
    ["eight digits", "12345678".repeat(5)],
    ["a short word", "quadquad".repeat(5)],
    ["the digits in order", "0123456789".repeat(4)],
    ["the alphabet and digits in order", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"],
    ["a keyboard walk", "zxcvbnmasdfghjkl1234567890poiuytrewqlkjhgfdsazxcvbnm"],
    ["16 random bytes in hex", "9f2c4e71b0a85d3361f7c2e8a4b9d05e"],
  ])("refuses a long but guessable secret (%s) with one line saying how to make one", async (_label, value) => {
    expect(() => production(value)).not.toThrow();
    await expect(readProduction(value)).rejects.toThrow(
      /^Invalid configuration: JWT_SECRET is too easy to guess \(about \d+ bits by a password-strength estimate, 128 needed: 32 random bytes or more\); generate one with: openssl rand -base64 48$/,
    );
  });

  it("accepts 48 random bytes in base64, 32 in hex or base64, and generated secrets every time", async () => {
    const { randomBytes } = await import("node:crypto");
    expect((await readProduction(secret)).JWT_SECRET).toBe(secret);
    // 0.03-0.1 s an estimate: 20 of each.
    for (let i = 0; i < 20; i++) {
      for (const value of [
        randomBytes(48).toString("base64"),
        randomBytes(48).toString("base64url"),
        randomBytes(32).toString("hex"),
        randomBytes(32).toString("base64"),
      ]) {
        await expect(readProduction(value), value).resolves.toBeTruthy();
      }
    }
  });

  it("leaves development and tests alone: any 32 characters do", () => {
    for (const NODE_ENV of ["development", "test"]) {
      expect(parseConfig({ NODE_ENV, JWT_SECRET: "change-me-change-me-change-me-change-me" }).JWT_SECRET).toMatch(
        /^change-me/,
      );
    }
  });
});

describe("SMS and job settings", () => {
  it("run the job scheduler and talk to Twilio's public API by default", () => {
    const config = parseConfig({ NODE_ENV: "development" }, "/tmp");
    expect(config).toMatchObject({ JOBS_ENABLED: true, TWILIO_API_BASE_URL: "https://api.twilio.com" });
  });

  it("let a process opt out of the job and point Twilio elsewhere", () => {
    const config = parseConfig(
      { NODE_ENV: "development", JOBS_ENABLED: "false", TWILIO_API_BASE_URL: "http://127.0.0.1:9999" },
      "/tmp",
    );
    expect(config).toMatchObject({ JOBS_ENABLED: false, TWILIO_API_BASE_URL: "http://127.0.0.1:9999" });
    expect(() => parseConfig({ JOBS_ENABLED: "sometimes" })).toThrow(/^Invalid configuration: JOBS_ENABLED /);
  });
});

describe("database settings", () => {
  it("size the Postgres pool, 10 connections unless told", () => {
    expect(parseConfig({ NODE_ENV: "development" }, "/tmp").DATABASE_POOL_SIZE).toBe(10);
    expect(parseConfig({ NODE_ENV: "development", DATABASE_POOL_SIZE: "4" }, "/tmp").DATABASE_POOL_SIZE).toBe(4);
    expect(parseConfig({ NODE_ENV: "development", DATABASE_POOL_SIZE: "" }, "/tmp").DATABASE_POOL_SIZE).toBe(10);
    expect(() => parseConfig({ NODE_ENV: "development", DATABASE_POOL_SIZE: "0" })).toThrow(
      /^Invalid configuration: DATABASE_POOL_SIZE /,
    );
    expect(() => parseConfig({ NODE_ENV: "development", DATABASE_POOL_SIZE: "four" })).toThrow(
      /^Invalid configuration: DATABASE_POOL_SIZE /,
    );
  });
});

describe("the hourly SMS budget", () => {
  it("is 2000 sign-in texts an hour unless told, and must be a positive whole number", () => {
    expect(parseConfig({ NODE_ENV: "development" }, "/tmp").SMS_HOURLY_BUDGET).toBe(2000);
    expect(parseConfig({ NODE_ENV: "development", SMS_HOURLY_BUDGET: "500" }, "/tmp").SMS_HOURLY_BUDGET).toBe(500);
    expect(parseConfig({ NODE_ENV: "development", SMS_HOURLY_BUDGET: "" }, "/tmp").SMS_HOURLY_BUDGET).toBe(2000);
    for (const bad of ["0", "-5", "1.5", "lots"]) {
      expect(() => parseConfig({ NODE_ENV: "development", SMS_HOURLY_BUDGET: bad })).toThrow(
        /^Invalid configuration: SMS_HOURLY_BUDGET /,
      );
    }
  });
});

describe("tracing settings", () => {
  const dev = { NODE_ENV: "development" };
  it("are off unless an OTLP endpoint is given, which must be an http(s) URL", () => {
    expect(parseConfig(dev, "/tmp").tracingEnabled).toBe(false);
    expect(parseConfig({ ...dev, OTEL_EXPORTER_OTLP_ENDPOINT: "" }, "/tmp").tracingEnabled).toBe(false);
    const on = parseConfig({ ...dev, OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }, "/tmp");
    expect(on).toMatchObject({
      tracingEnabled: true,
      OTEL_SERVICE_NAME: "quad",
      OTEL_TRACES_SAMPLER: "parentbased_always_on",
      OTEL_TRACES_SAMPLER_ARG: 1,
    });
    for (const bad of ["127.0.0.1:4318", "grpc://collector:4317", "not a url"]) {
      expect(() => parseConfig({ ...dev, OTEL_EXPORTER_OTLP_ENDPOINT: bad })).toThrow(
        /^Invalid configuration: OTEL_EXPORTER_OTLP_ENDPOINT /,
      );
    }
  });

  it("take OpenTelemetry's standard samplers and a ratio between 0 and 1", () => {
    const config = parseConfig(
      { ...dev, OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" },
      "/tmp",
    );
    expect(config).toMatchObject({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: 0.1 });
    expect(() => parseConfig({ ...dev, OTEL_TRACES_SAMPLER: "sometimes" })).toThrow(
      /^Invalid configuration: OTEL_TRACES_SAMPLER /,
    );
    for (const bad of ["1.5", "-0.1", "half"]) {
      expect(() => parseConfig({ ...dev, OTEL_TRACES_SAMPLER_ARG: bad })).toThrow(
        /^Invalid configuration: OTEL_TRACES_SAMPLER_ARG /,
      );
    }
  });
});

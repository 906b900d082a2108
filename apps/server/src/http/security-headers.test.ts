import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../env";
import { createTestApp, type TestApp } from "../test/app";
import { builtInlineHashes } from "./inline-hashes";
import { registerSecurityHeaders } from "./security-headers";

type Headers = Record<string, string | string[] | number | undefined>;

/** The CSP as directive name → its sources. */
function csp(headers: Headers): Map<string, string[]> {
  const value = String(headers["content-security-policy"] ?? "");
  return new Map(
    value
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** What every answer must carry, whatever route, status or content type. */
function expectBrowserHeaders(headers: Headers, label: string) {
  const policy = csp(headers);
  expect(policy.get("frame-ancestors"), label).toEqual(["'none'"]);
  expect(policy.get("default-src"), label).toEqual(["'self'"]);
  expect(policy.get("object-src"), label).toEqual(["'none'"]);
  expect(policy.get("script-src"), label).not.toContain("'unsafe-inline'");
  expect(policy.get("script-src"), label).not.toContain("'unsafe-eval'");
  expect(headers["x-content-type-options"], label).toBe("nosniff");
  expect(headers["x-frame-options"], label).toBe("DENY");
  expect(headers["referrer-policy"], label).toBe("strict-origin-when-cross-origin");
  expect(headers["cross-origin-opener-policy"], label).toBe("same-origin");
  expect(headers["permissions-policy"], label).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\).*payment=\(\)/);
  expect(headers["x-powered-by"], label).toBeUndefined();
}

const INLINE_SCRIPT = "document.documentElement.dataset.x='1'";
const INLINE_STYLE = "[data-signed-in] [data-prerendered]{display:none}";
const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("security headers on every answer of the real app", () => {
  let t: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = await mkdtemp(path.join(tmpdir(), "quad-web-"));
    await mkdir(path.join(webDir, "assets"));
    await writeFile(
      path.join(webDir, "index.html"),
      `<!doctype html><head><script>${INLINE_SCRIPT}</script><style>${INLINE_STYLE}</style>` +
        `<script type="module" src="/assets/app-abc123.js"></script></head><div id=root></div>`,
    );
    await writeFile(path.join(webDir, "app.html"), "<!doctype html><div id=root></div>");
    await writeFile(path.join(webDir, "assets", "app-abc123.js"), "console.log('quad')");
    t = await createTestApp({ webDistDir: webDir });
    await t.deps.media.put(
      "profiles/headers-test.svg",
      Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
      "image/svg+xml",
    );
  });
  afterAll(async () => {
    await t?.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it.each([
    ["REST", "/api/schools", 200],
    ["tRPC", "/api/trpc/schools.list", 200],
    ["the prerendered page", "/", 200],
    ["the app shell at a deep link", "/login", 200],
    ["a hashed asset", "/assets/app-abc123.js", 200],
    ["an uploaded photo", "/api/media/profiles/headers-test.svg", 200],
    ["a missing photo", "/api/media/profiles/none.svg", 404],
    ["an unknown REST route", "/api/no-such-route", 404],
    ["an unknown procedure", "/api/trpc/no.such.procedure", 404],
    ["a refused call (no session)", "/api/users/me", 401],
  ])("%s (%s) carries them", async (label, url, status) => {
    const res = await t.app.inject({ method: "GET", url, headers: { accept: "text/html" } });
    expect(res.statusCode, label).toBe(status);
    if (url.startsWith("/api/media/") && status === 200) {
      // Media keeps its own, stricter policy (no script at all), and is never sniffed as HTML.
      expect(res.headers["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      return;
    }
    expectBrowserHeaders(res.headers, label);
  });

  it("carries them on refused input, over REST and tRPC", async () => {
    const rest = await t.app.inject({ method: "POST", url: "/api/auth/send-code", payload: { phone: "nope" } });
    expect(rest.statusCode).toBe(400);
    expectBrowserHeaders(rest.headers, "REST send-code");
    const trpc = await t.app.inject({ method: "POST", url: "/api/trpc/auth.sendCode", payload: { phone: "nope" } });
    expect(trpc.statusCode).toBe(400);
    expectBrowserHeaders(trpc.headers, "tRPC auth.sendCode");
    const json = await t.app.inject({
      method: "POST",
      url: "/api/auth/send-code",
      headers: { "content-type": "application/json" },
      payload: "{",
    });
    expect(json.statusCode).toBe(400);
    expectBrowserHeaders(json.headers, "malformed JSON");
  });

  it("allows the build's inline script and style by hash, and no other inline code", async () => {
    const res = await t.app.inject({ method: "GET", url: "/" });
    const policy = csp(res.headers);
    expect(policy.get("script-src")).toEqual(["'self'", sha256(INLINE_SCRIPT)]);
    expect(policy.get("script-src-attr")).toEqual(["'none'"]);
    expect(policy.get("style-src")).toEqual(["'self'", sha256(INLINE_STYLE)]);
    expect(policy.get("frame-src")).toEqual(["'none'"]);
    // http PUBLIC_URL (the tests' default): no HSTS, no upgrade.
    expect(res.headers["strict-transport-security"]).toBeUndefined();
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
  });
});

describe("hashes of the built HTML", () => {
  it("cover inline scripts and styles, not scripts loaded from a file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "quad-web-"));
    try {
      await writeFile(
        path.join(dir, "index.html"),
        `<script>a()</script><script type="module" crossorigin src="/x.js"></script><style>p{}</style>`,
      );
      await writeFile(path.join(dir, "app.html"), `<script>a()</script>`);
      expect(builtInlineHashes(dir)).toEqual({
        scripts: [sha256("a()").slice(8, -1)],
        styles: [sha256("p{}").slice(8, -1)],
      });
      expect(builtInlineHashes(undefined)).toEqual({ scripts: [], styles: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** The headers alone, for configurations a whole app would need real providers for. */
async function headersFor(env: Record<string, string>) {
  const app = Fastify();
  registerSecurityHeaders(app, parseConfig({ NODE_ENV: "test", ...env }, "/tmp"), { scripts: [], styles: [] });
  app.get("/", () => "ok");
  const res = await app.inject({ method: "GET", url: "/" });
  await app.close();
  return res.headers;
}

describe("security headers follow the configuration", () => {
  it("pin https (HSTS, upgrade) only when PUBLIC_URL is https", async () => {
    const https = await headersFor({ PUBLIC_URL: "https://quad.example.edu" });
    expect(https["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(csp(https).has("upgrade-insecure-requests")).toBe(true);
    const http = await headersFor({ PUBLIC_URL: "http://localhost:3000" });
    expect(http["strict-transport-security"]).toBeUndefined();
    expect(csp(http).has("upgrade-insecure-requests")).toBe(false);
  });

  it("allow no third party when the local providers are on", async () => {
    const value = String((await headersFor({}))["content-security-policy"]);
    expect(value).not.toMatch(/stripe|google|gstatic|firebase/);
  });

  it("allow Stripe's script, frames and API only with PAYMENT_PROVIDER=stripe", async () => {
    const headers = await headersFor({
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      STRIPE_PUBLISHABLE_KEY: "pk_test_x",
    });
    const policy = csp(headers);
    expect(policy.get("script-src")).toContain("https://js.stripe.com");
    expect(policy.get("frame-src")).toEqual(
      expect.arrayContaining(["https://js.stripe.com", "https://hooks.stripe.com"]),
    );
    expect(policy.get("connect-src")).toContain("https://api.stripe.com");
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(String(headers["content-security-policy"])).not.toMatch(/google|firebase/);
    expect(headers["permissions-policy"]).toContain('payment=(self "https://js.stripe.com")');
  });

  it("allow Firebase's auth API, reCAPTCHA and auth domain only with AUTH_PROVIDER=firebase", async () => {
    const headers = await headersFor({
      AUTH_PROVIDER: "firebase",
      FIREBASE_PROJECT_ID: "quad-test",
      FIREBASE_API_KEY: "key",
    });
    const policy = csp(headers);
    expect(policy.get("script-src")).toEqual(
      expect.arrayContaining(["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"]),
    );
    expect(policy.get("frame-src")).toContain("https://quad-test.firebaseapp.com");
    expect(policy.get("connect-src")).toEqual(
      expect.arrayContaining(["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"]),
    );
    expect(String(headers["content-security-policy"])).not.toMatch(/stripe/);
    expect(headers["permissions-policy"]).toContain("payment=()");
  });
});

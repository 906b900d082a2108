import type { FastifyInstance } from "fastify";
import helmet from "helmet";
import { firebaseAuthDomain, type Config } from "../env";
import type { InlineHashes } from "./inline-hashes";

/**
 * Browser security headers on every response (API, SPA, media, 404s), in one
 * place, from the configuration (docs/decisions/0012-security-headers.md).
 * Helmet writes them when the request arrives, so error and not-found answers
 * carry them too; a route may still replace one (media sets its own CSP).
 * Helmet's middleware is built once: @fastify/helmet builds it again for
 * every request, 4x the CPU (about 20 µs against 5 µs a request).
 */

type ProviderConfig = Pick<
  Config,
  "PUBLIC_URL" | "PAYMENT_PROVIDER" | "AUTH_PROVIDER" | "FIREBASE_PROJECT_ID" | "FIREBASE_AUTH_DOMAIN"
>;

interface Sources {
  script: string[];
  frame: string[];
  connect: string[];
  img: string[];
}

/** What Stripe.js (Payment Element) loads, per Stripe's published CSP list. */
const STRIPE: Sources = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
  img: ["https://*.stripe.com"],
};

/** What Firebase phone sign-in loads: its auth API and the invisible reCAPTCHA. */
function firebaseSources(config: ProviderConfig): Sources {
  return {
    script: ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/", "https://apis.google.com"],
    frame: [
      "https://www.google.com/recaptcha/",
      "https://recaptcha.google.com/recaptcha/",
      `https://${firebaseAuthDomain(config)}`,
    ],
    connect: ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"],
    img: [],
  };
}

/** Hashes of the built HTML's inline `<script>` and `<style>` elements, as CSP sources. */
const hashSources = (hashes: string[]) => hashes.map((hash) => `'sha256-${hash}'`);

/** The Content-Security-Policy directives for this configuration and this web build. */
export function cspDirectives(config: ProviderConfig, inline: InlineHashes): Record<string, string[]> {
  const providers = [
    ...(config.PAYMENT_PROVIDER === "stripe" ? [STRIPE] : []),
    ...(config.AUTH_PROVIDER === "firebase" ? [firebaseSources(config)] : []),
  ];
  const from = (pick: (s: Sources) => string[]) => providers.flatMap(pick);
  const frames = from((s) => s.frame);
  return {
    "default-src": ["'self'"],
    "base-uri": ["'none'"],
    "object-src": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    // Inline script only by the hash of what the build wrote; no eval, no handler attributes.
    "script-src": ["'self'", ...hashSources(inline.scripts), ...from((s) => s.script)],
    "script-src-attr": ["'none'"],
    // <style> elements by hash; style attributes (the prerendered landing sets one) run no code.
    "style-src": ["'self'", ...hashSources(inline.styles)],
    "style-src-attr": ["'unsafe-inline'"],
    // data: for the generated SVG placeholders and icons, blob: for the photo cropper's preview.
    "img-src": ["'self'", "data:", "blob:", ...from((s) => s.img)],
    "font-src": ["'self'", "data:"],
    // blob: because the cropper reads the chosen photo's orientation back from its object URL.
    "connect-src": ["'self'", "blob:", ...from((s) => s.connect)],
    "frame-src": frames.length ? frames : ["'none'"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    ...(isHttps(config) ? { "upgrade-insecure-requests": [] } : {}),
  };
}

/** Powerful features nobody here uses are off; payment only for Stripe's frames when Stripe is on. */
export function permissionsPolicy(config: ProviderConfig): string {
  const payment = config.PAYMENT_PROVIDER === "stripe" ? '(self "https://js.stripe.com")' : "()";
  return [
    "camera=()",
    "microphone=()",
    "geolocation=()",
    "usb=()",
    "serial=()",
    "bluetooth=()",
    "hid=()",
    "midi=()",
    "display-capture=()",
    "browsing-topics=()",
    `payment=${payment}`,
  ].join(", ");
}

const isHttps = (config: ProviderConfig) => new URL(config.PUBLIC_URL).protocol === "https:";

/** Registers the headers on every route of `app` (call before any route is added). */
export function registerSecurityHeaders(app: FastifyInstance, config: ProviderConfig, inline: InlineHashes): void {
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config, inline) },
    // Only a site reached over https may pin https; on http browsers ignore it anyway.
    strictTransportSecurity: isHttps(config) ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true } : false,
    xFrameOptions: { action: "deny" },
    // Only the origin leaves the site: reCAPTCHA and Stripe check it, paths (/votes/…) stay here.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
  });
  const permissions = permissionsPolicy(config);
  app.addHook("onRequest", (request, reply, done) => {
    // Helmet has no Permissions-Policy; written the same way, so every answer carries it.
    reply.raw.setHeader("permissions-policy", permissions);
    headers(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}

import { normalizePushEndpoint } from "@quad/contracts";
import ipaddr from "ipaddr.js";

/**
 * The browsers' push services (Chrome and Edge's FCM, Firefox's autopush,
 * Safari's, Windows'): in production a subscription must be on one of them.
 * `*.` matches any name below the domain, not the domain itself.
 * PUSH_SERVICE_HOSTS adds to this list (a new browser, a new service).
 */
export const DEFAULT_PUSH_SERVICE_HOSTS = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.push.services.mozilla.com",
  "*.push.apple.com",
  "*.notify.windows.com",
] as const;

/** Why an endpoint is refused: not a well-formed https URL, or not on an allowed push service. */
export type EndpointRefusal = "format" | "service";

export type EndpointCheck = { ok: true; endpoint: string; host: string } | { ok: false; refusal: EndpointRefusal };

/** Which push endpoints the server stores and posts to. */
export interface PushEndpointPolicy {
  /** The endpoint in its one normalised spelling (what is stored and compared), or why it is refused. */
  check(endpoint: string): EndpointCheck;
}

/**
 * A host name pattern as PUSH_SERVICE_HOSTS and the default list write it:
 * `name` or `*.name`, in lower case and punycode, with at least one dot, never
 * an address, and nothing else (no scheme, port or path).
 */
export function isPushServiceHostPattern(pattern: string): boolean {
  const name = pattern.startsWith("*.") ? pattern.slice(2) : pattern;
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(name) && !ipaddr.isValid(name);
}

function hostMatcher(patterns: readonly string[]): (host: string) => boolean {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const pattern of patterns) {
    const wildcard = pattern.startsWith("*.");
    const host = normalizePushEndpoint(`https://${wildcard ? pattern.slice(2) : pattern}/`)?.hostname;
    if (!host) continue;
    if (wildcard) suffixes.push(`.${host}`);
    else exact.add(host);
  }
  return (host) => exact.has(host) || suffixes.some((suffix) => host.endsWith(suffix));
}

export interface EndpointPolicyOptions {
  /**
   * Production: only the push services' hosts, on port 443. Elsewhere any
   * https endpoint is taken, so development and the tests can use a local
   * push service (on 127.0.0.1, on its own port).
   */
  production: boolean;
  /** Host patterns added to DEFAULT_PUSH_SERVICE_HOSTS (PUSH_SERVICE_HOSTS). */
  extraHosts?: readonly string[];
}

export function pushEndpointPolicy(options: EndpointPolicyOptions): PushEndpointPolicy {
  const allowed = hostMatcher([...DEFAULT_PUSH_SERVICE_HOSTS, ...(options.extraHosts ?? [])]);
  return {
    check(endpoint) {
      const url = normalizePushEndpoint(endpoint);
      if (!url) return { ok: false, refusal: "format" };
      const host = url.hostname;
      // An address literal is never a push service's name, whatever a pattern might match.
      const literal = ipaddr.isValid(host.replace(/^\[|\]$/g, ""));
      if (options.production && (url.port !== "" || literal || !allowed(host))) {
        return { ok: false, refusal: "service" };
      }
      return { ok: true, endpoint: url.href, host };
    },
  };
}

const policies = new WeakMap<object, PushEndpointPolicy>();

/** The policy this server's configuration sets (one for subscribing and for sending). */
export function pushEndpointPolicyFor(config: {
  isProduction: boolean;
  pushServiceHosts: readonly string[];
}): PushEndpointPolicy {
  let policy = policies.get(config);
  if (!policy) {
    policy = pushEndpointPolicy({ production: config.isProduction, extraHosts: config.pushServiceHosts });
    policies.set(config, policy);
  }
  return policy;
}

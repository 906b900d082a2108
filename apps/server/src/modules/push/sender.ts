import { Agent } from "node:https";
import { normalizePushEndpoint } from "@quad/contracts";
import ipaddr from "ipaddr.js";
import webPush, { WebPushError } from "web-push";
import { guardedLookup, isPublicAddress, systemResolver, type Resolver } from "./address-guard";
import type { PushEndpointPolicy } from "./endpoint-policy";

/** A stored subscription, as web-push takes it. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** Why a push did not go through, as the queue decides from it. */
export class PushDeliveryError extends Error {
  constructor(
    message: string,
    /** The push service's status, when it answered. */
    readonly statusCode: number | undefined,
    /** 404/410: the subscription is gone for good (unsubscribed, expired); remove it. */
    readonly gone: boolean,
  ) {
    super(message);
    this.name = "PushDeliveryError";
  }
}

/** Sends one encrypted push (RFC 8291 payload, RFC 8292 VAPID); throws PushDeliveryError. */
export interface PushSender {
  /** The VAPID public key browsers must subscribe with. */
  readonly publicKey: string;
  send(target: PushTarget, payload: string): Promise<void>;
}

export interface WebPushSenderOptions {
  publicKey: string;
  privateKey: string;
  /** mailto: or https: contact for the push service. */
  subject: string;
  /** How long the push service keeps a push for an offline device, in seconds. */
  ttlSeconds?: number;
  /** Certificates to trust instead of Node's: the tests' local push service signs its own. */
  ca?: string;
  timeoutMs?: number;
  /**
   * Checked again before each push (a subscription stored under an older rule
   * is refused and removed): production takes only the push services.
   */
  endpoints?: PushEndpointPolicy;
  /**
   * Development and tests post to a local push service. Otherwise (production)
   * a push service's name must resolve to public addresses only.
   */
  allowPrivateAddresses?: boolean;
  /** How names are resolved (tests answer their own addresses). */
  resolve?: Resolver;
}

/** A day: a notice older than that is stale; the next one counts its votes anyway. */
const DEFAULT_TTL_SECONDS = 24 * 60 * 60;

export function createWebPushSender(options: WebPushSenderOptions): PushSender {
  const vapidDetails = { subject: options.subject, publicKey: options.publicKey, privateKey: options.privateKey };
  const allowPrivate = options.allowPrivateAddresses ?? false;
  // Every push goes through this agent: its lookup checks the addresses it connects to. web-push
  // makes one request and never follows a redirect (a 3xx is a failure like any other answer).
  const agent = new Agent({
    lookup: guardedLookup(options.resolve ?? systemResolver, allowPrivate),
    ...(options.ca ? { ca: options.ca } : {}),
  });
  return {
    publicKey: options.publicKey,
    async send(target, payload) {
      const endpoint = endpointToPost(target.endpoint, options.endpoints, allowPrivate);
      if (!endpoint.ok) throw new PushDeliveryError(endpoint.refusal, undefined, true);
      try {
        // The normalised URL: web-push reads it with Node's legacy parser, which agrees with WHATWG's on it.
        await webPush.sendNotification({ ...target, endpoint: endpoint.href }, payload, {
          vapidDetails,
          TTL: options.ttlSeconds ?? DEFAULT_TTL_SECONDS,
          // Counts are worth showing soon, but not worth waking a phone from deep sleep.
          urgency: "normal",
          contentEncoding: "aes128gcm",
          timeout: options.timeoutMs ?? 10_000,
          agent,
        });
      } catch (error) {
        if (error instanceof WebPushError) {
          const gone = error.statusCode === 404 || error.statusCode === 410;
          throw new PushDeliveryError(`push service answered ${error.statusCode}`, error.statusCode, gone);
        }
        throw new PushDeliveryError(error instanceof Error ? error.message : String(error), undefined, false);
      }
    },
  };
}

/**
 * The endpoint to post to, normalised, or why it never is. Names are checked
 * by the agent's lookup when it connects; an address literal is connected to
 * without a lookup, so it is checked here.
 */
function endpointToPost(
  endpoint: string,
  policy: PushEndpointPolicy | undefined,
  allowPrivate: boolean,
): { ok: true; href: string } | { ok: false; refusal: string } {
  const url = normalizePushEndpoint(endpoint);
  if (!url || (policy && !policy.check(endpoint).ok)) {
    return { ok: false, refusal: "endpoint is not on an allowed push service" };
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
    return { ok: false, refusal: `refused: ${host} is not a public address` };
  }
  return { ok: true, href: url.href };
}

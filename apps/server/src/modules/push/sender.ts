import type { Agent } from "node:https";
import webPush, { WebPushError } from "web-push";

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
  /** Tests reach the fake push service's self-signed TLS through their own agent. */
  agent?: Agent;
  timeoutMs?: number;
}

/** A day: a notice older than that is stale; the next one counts its votes anyway. */
const DEFAULT_TTL_SECONDS = 24 * 60 * 60;

export function createWebPushSender(options: WebPushSenderOptions): PushSender {
  const vapidDetails = { subject: options.subject, publicKey: options.publicKey, privateKey: options.privateKey };
  return {
    publicKey: options.publicKey,
    async send(target, payload) {
      try {
        await webPush.sendNotification(target, payload, {
          vapidDetails,
          TTL: options.ttlSeconds ?? DEFAULT_TTL_SECONDS,
          // Counts are worth showing soon, but not worth waking a phone from deep sleep.
          urgency: "normal",
          contentEncoding: "aes128gcm",
          timeout: options.timeoutMs ?? 10_000,
          ...(options.agent ? { agent: options.agent } : {}),
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

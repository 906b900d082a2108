import { z } from "zod";
import { type EndpointDef, route } from "./endpoint";

/**
 * Vote notifications by Web Push (docs/product.md "Notifications",
 * docs/decisions/0018-web-push-and-the-service-worker.md): the same notice as
 * the text (counts only, quiet hours, daily cap, one per batch), free and
 * instant. A student with push on for any device gets pushes instead of texts.
 */

/** Input errors the subscribe and unsubscribe endpoints answer, field by field. */
export const PUSH_MESSAGES = {
  endpoint: "endpoint must be an https:// URL of a push service",
  /** Production: the endpoint is well formed but not on a browser's push service (or not on port 443). */
  endpointService: "endpoint must be on a browser's push service (https on port 443)",
  p256dh: "keys.p256dh must be the browser's P-256 public key (65 bytes, base64url)",
  auth: "keys.auth must be the browser's 16-byte auth secret (base64url)",
  disabled: "Push notifications are not available on this server.",
} as const;

/**
 * Devices one student may have push on for. Subscribing one more drops the
 * one that subscribed longest ago (every visit to Settings subscribes again),
 * so a student cannot make each notice fan out without bound.
 */
export const PUSH_DEVICES_PER_STUDENT = 10;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Bytes a base64url string decodes to, without decoding it (zod is the only dependency here). */
const base64urlBytes = (value: string) => Math.floor((value.replace(/=+$/, "").length * 3) / 4);

/**
 * An endpoint as the WHATWG URL parser reads it (as browsers and the server's
 * checks do), its host in one spelling: lower case and punycode (the parser
 * does both, and decodes escapes such as `%2e`), without the trailing dot
 * that names the same host. Null unless it is https without user or password.
 */
export function normalizePushEndpoint(value: string): URL | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== "https:" || url.username !== "" || url.password !== "") return null;
  const host = url.hostname.replace(/\.+$/, "");
  if (host === "") return null;
  url.hostname = host;
  // The setter ignores what it cannot take; then the endpoint is not one host in one spelling.
  return url.hostname === host ? url : null;
}

/** The push service's address: https only (the browser's push service; never a plain-http host). */
export const PushEndpoint = z
  .string({ error: PUSH_MESSAGES.endpoint })
  .max(2048, { error: PUSH_MESSAGES.endpoint })
  .refine((value) => normalizePushEndpoint(value) !== null, { error: PUSH_MESSAGES.endpoint });

/** What `PushSubscription.toJSON()` gives in the browser. */
export const PushSubscriptionInput = z
  .object({
    endpoint: PushEndpoint,
    expirationTime: z.number().nullable().optional(),
    keys: z
      .object({
        p256dh: z
          .string({ error: PUSH_MESSAGES.p256dh })
          .regex(BASE64URL, { error: PUSH_MESSAGES.p256dh })
          .refine((v) => base64urlBytes(v) === 65, { error: PUSH_MESSAGES.p256dh }),
        auth: z
          .string({ error: PUSH_MESSAGES.auth })
          .regex(BASE64URL, { error: PUSH_MESSAGES.auth })
          .refine((v) => base64urlBytes(v) === 16, { error: PUSH_MESSAGES.auth }),
      })
      .strip(),
  })
  .strip();
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionInput>;

export const PushUnsubscribeInput = z.object({ endpoint: PushEndpoint }).strict();
export type PushUnsubscribeInput = z.infer<typeof PushUnsubscribeInput>;

/** Whether this device's subscription is stored (after subscribing or unsubscribing). */
export const PushDeviceState = z.object({ subscribed: z.boolean() });
export type PushDeviceState = z.infer<typeof PushDeviceState>;

/** The notice a service worker shows: counts only, never who voted. */
export const PushNotice = z.object({
  title: z.string(),
  body: z.string(),
  /** The app page the notification opens. */
  url: z.string(),
  count: z.number().int().min(1),
});
export type PushNotice = z.infer<typeof PushNotice>;

/** The page a notice opens: /home with the received votes showing. */
export const PUSH_NOTICE_URL = "/home?votes=1";

export function pushNotice(count: number): PushNotice {
  const votes = count === 1 ? "1 new vote" : `${count} new votes`;
  return { title: `You got ${votes} on Quad!`, body: "Tap to see who voted for you.", url: PUSH_NOTICE_URL, count };
}

/** The push procedures' rows of the endpoint table (merged in routes.ts). */
export const pushRoutes = {
  "push.subscribe": route({
    writeLimit: true,
    method: "PUT",
    path: "/push/subscription",
    auth: true,
    tags: ["users"],
    summary: "Store this device's Web Push subscription: vote notices come here instead of by text",
    input: PushSubscriptionInput,
    output: PushDeviceState,
  }),
  "push.unsubscribe": route({
    writeLimit: true,
    method: "POST",
    path: "/push/unsubscribe",
    auth: true,
    tags: ["users"],
    summary: "Remove this device's Web Push subscription",
    input: PushUnsubscribeInput,
    output: PushDeviceState,
  }),
} as const satisfies Record<`push.${string}`, EndpointDef>;

import { createHmac, timingSafeEqual } from "node:crypto";
import { SmsDeliveryError, type SmsProvider } from "./sender";

export const TWILIO_API_BASE_URL = "https://api.twilio.com";
/** Longer than Twilio normally takes; far shorter than the queue's "sending" timeout. */
const REQUEST_TIMEOUT_MS = 15_000;

export interface TwilioProviderOptions {
  accountSid: string;
  authToken: string;
  /** A Twilio number in E.164, or a Messaging Service SID (MG...). */
  from: string;
  /** Where Twilio posts delivery status: $PUBLIC_URL/api/sms/status. */
  statusCallbackUrl?: string;
  /** Tests point this at an in-process fake. */
  baseUrl?: string;
  timeoutMs?: number;
}

/** Network failures that happen before a request leaves: the message was certainly not accepted. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

/**
 * The Twilio REST API: POST /2010-04-01/Accounts/{AccountSid}/Messages.json
 * with HTTP basic auth (SID:token) and a form body. Answers Twilio's message
 * SID. Twilio offers no idempotency key for this call, so only failures that
 * prove nothing was accepted are retryable: 429 and 503 (rejected before
 * processing) and connection errors before sending. Other 4xx are permanent
 * (invalid number, 21610 unsubscribed...); other 5xx and timeouts leave the
 * outcome unknown.
 */
export function createTwilioProvider(opts: TwilioProviderOptions): SmsProvider {
  const base = (opts.baseUrl ?? TWILIO_API_BASE_URL).replace(/\/+$/, "");
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(opts.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString("base64")}`;

  return {
    name: "twilio",
    async deliver({ to, body }) {
      const form = new URLSearchParams({ To: to, Body: body });
      form.set(opts.from.startsWith("MG") ? "MessagingServiceSid" : "From", opts.from);
      if (opts.statusCallbackUrl) form.set("StatusCallback", opts.statusCallbackUrl);

      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { authorization, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
          body: form,
          signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
        });
      } catch (error) {
        const code = causeCode(error);
        if (code && NOT_SENT_CODES.has(code)) throw new SmsDeliveryError(`Twilio unreachable: ${code}`, true);
        const reason = (error as Error).name === "TimeoutError" ? "timed out" : (code ?? (error as Error).message);
        throw new SmsDeliveryError(`Twilio request ${reason}: outcome unknown`, false, true);
      }

      const text = await response.text();
      let json: { sid?: unknown; code?: unknown; message?: unknown } = {};
      try {
        json = JSON.parse(text) as typeof json;
      } catch {
        // Non-JSON bodies (a proxy's error page) are reported by status alone.
      }
      if (!response.ok) {
        const detail = [json.code, json.message].filter((v) => v !== undefined && v !== null).join(" ");
        const message = `Twilio ${response.status}${detail ? `: ${detail}` : ""}`;
        if (response.status === 429 || response.status === 503) throw new SmsDeliveryError(message, true);
        if (response.status >= 500) throw new SmsDeliveryError(`${message} (outcome unknown)`, false, true);
        throw new SmsDeliveryError(message, false, false, json.code === TWILIO_UNSUBSCRIBED);
      }
      if (typeof json.sid !== "string")
        throw new SmsDeliveryError(`Twilio ${response.status} without a message sid`, false, true);
      return { providerMessageId: json.sid };
    },
  };
}

/** "Attempt to send to unsubscribed recipient": the number replied STOP to our sender. */
const TWILIO_UNSUBSCRIBED = 21610;

/**
 * Twilio's request signature (X-Twilio-Signature): HMAC-SHA1, keyed by the
 * auth token, of the full URL Twilio called followed by every POST parameter
 * as name then value, sorted by name; base64. Ours rather than the `twilio`
 * package's `validateRequest`, which would bring 30 MB of dependencies for
 * these lines (docs/decisions/0029-maintained-rate-limiter-and-twilio-signature.md).
 */
export function twilioSignature(authToken: string, url: string, params: Iterable<[string, string]>): string {
  const sorted = [...params].sort(([ak, av], [bk, bv]) =>
    ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0,
  );
  const payload = sorted.reduce((acc, [key, value]) => acc + key + value, url);
  return createHmac("sha1", authToken).update(payload, "utf8").digest("base64");
}

export function verifyTwilioSignature(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: Iterable<[string, string]>,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

import type { Database } from "@quad/db";
import { smsOutbox } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { smsTexts } from "../../metrics/registry";
import { smsAllowed } from "../consents/service";

export type SmsKind = "code" | "notification" | "system";

export interface SmsMessage {
  to: string;
  body: string;
  kind: SmsKind;
}

/**
 * Hands one text to the phone network. Throws SmsDeliveryError when it could
 * not; never retries by itself (the queue decides, see queue.ts).
 */
export interface SmsProvider {
  readonly name: "outbox" | "twilio";
  deliver(message: { to: string; body: string }): Promise<{ providerMessageId: string | null }>;
}

export class SmsDeliveryError extends Error {
  /**
   * retryable: the provider certainly did not accept the message and may
   * later (rate limited, overloaded, unreachable). outcomeUnknown: it may
   * have been accepted (a timeout after the request left): never resend.
   * recipientOptedOut: the carrier says the number replied STOP to us
   * (Twilio 21610), which the app must then treat as an opt-out too.
   */
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly outcomeUnknown = false,
    readonly recipientOptedOut = false,
  ) {
    super(message);
    this.name = "SmsDeliveryError";
  }
}

/**
 * The development provider: delivering is storing. The sms_outbox row is the
 * message, readable for one phone at /api/dev/sms-outbox in development, so a
 * person or a browser test reads codes as if from a phone. Refused in
 * production unless ALLOW_DEV_PROVIDERS is set (env.ts); /api/dev never is.
 */
export const outboxProvider: SmsProvider = {
  name: "outbox",
  async deliver() {
    return { providerMessageId: null };
  },
};

/**
 * Sends a text now, while the caller waits (sign-in codes); queued texts go
 * through queue.ts. A text the number does not consent to is silently dropped.
 */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/**
 * Every message is written to sms_outbox as "sending" before the provider is
 * called, then marked sent or failed, so the table is the record of what
 * went out. A crash in between leaves it "sending"; the job marks it failed
 * and never resends it.
 *
 * Sign-in codes go out whatever the consent record says: the person asked
 * for this one text. (Twilio still refuses numbers that replied STOP to our
 * sender until they reply START.) Anything else needs smsAllowed.
 */
export function createSmsSender(db: Database, provider: SmsProvider, now: () => Date): SmsSender {
  return {
    async send(message) {
      if (message.kind !== "code" && !(await smsAllowed(db, message.to))) return;
      const at = now();
      const [row] = await db
        .insert(smsOutbox)
        .values({
          toPhone: message.to,
          body: message.body,
          kind: message.kind,
          status: "sending",
          attempts: 1,
          createdAt: at,
          claimedAt: at,
        })
        .returning({ id: smsOutbox.id })
        // Nothing was handed to the provider (a full disk, say).
        .catch((error: unknown) => Promise.reject(markNotSent(error)));
      let providerMessageId: string | null;
      try {
        ({ providerMessageId } = await provider.deliver({ to: message.to, body: message.body }));
      } catch (error) {
        smsTexts.inc({ kind: message.kind, outcome: "failed" });
        await db
          .update(smsOutbox)
          .set({ status: "failed", lastError: errorText(error) })
          .where(eq(smsOutbox.id, row!.id))
          // The row stays "sending", which the job marks failed: the provider's error is the one to tell.
          .catch(() => {});
        throw error;
      }
      smsTexts.inc({ kind: message.kind, outcome: "sent" });
      await db
        .update(smsOutbox)
        .set({ status: "sent", sentAt: now(), providerMessageId })
        .where(eq(smsOutbox.id, row!.id));
    },
  };
}

const notSent = new WeakSet<object>();
const markNotSent = (error: unknown) => {
  if (error && typeof error === "object") notSent.add(error);
  return error;
};

/**
 * Whether a failed send certainly sent nothing: it failed before the provider
 * was called, or the provider refused the text. A send whose outcome is
 * unknown, or that failed only to record a text that went out, may have.
 */
export function certainlyNotSent(error: unknown): boolean {
  if (error instanceof SmsDeliveryError) return !error.outcomeUnknown;
  return !!error && typeof error === "object" && notSent.has(error);
}

/** The sender with the development provider (the default, SMS_PROVIDER=outbox). */
export function createOutboxSender(db: Database, now: () => Date): SmsSender {
  return createSmsSender(db, outboxProvider, now);
}

/** What is stored in sms_outbox.last_error: short, no stack. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 500);
}

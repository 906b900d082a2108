import type { Database } from "@quad/db";
import { smsOutbox } from "@quad/db/schema";

export type SmsKind = "code" | "notification" | "system";

export interface SmsMessage {
  to: string;
  body: string;
  kind: SmsKind;
}

/** Every text the app sends goes through one of these. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/**
 * The development provider: messages are stored, marked sent, and readable
 * at /api/dev/sms-outbox, so a person or a browser test reads codes as if
 * from a phone. Refused in production unless ALLOW_DEV_PROVIDERS is set.
 */
export function createOutboxSender(db: Database, now: () => Date): SmsSender {
  return {
    async send(message) {
      const at = now();
      await db.insert(smsOutbox).values({
        toPhone: message.to,
        body: message.body,
        kind: message.kind,
        status: "sent",
        attempts: 1,
        createdAt: at,
        sentAt: at,
      });
    },
  };
}

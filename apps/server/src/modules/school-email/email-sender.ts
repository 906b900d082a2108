import type { Database } from "@quad/db";
import { emailOutbox } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { createTransport } from "nodemailer";
import { errorText } from "../sms/sender";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** The student it is for: their messages go when the account does. */
  userId: string;
}

/** Hands one e-mail to a mail server; throws when it was not accepted. */
export interface EmailProvider {
  readonly name: "outbox" | "smtp";
  deliver(message: { to: string; subject: string; text: string }): Promise<{ providerMessageId: string | null }>;
}

/**
 * The development provider: delivering is storing. The email_outbox row is
 * the message, readable for one address at /api/dev/email-outbox in
 * development. Refused in production unless ALLOW_DEV_PROVIDERS is set.
 */
export const outboxEmailProvider: EmailProvider = {
  name: "outbox",
  async deliver() {
    return { providerMessageId: null };
  },
};

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * SMTP through nodemailer (SMTP_URL: smtps:// for TLS from the start, smtp://
 * for STARTTLS). A connection per message (no pool): codes are
 * rare, and a pooled connection the server closed would fail the next one.
 */
export function createSmtpProvider(opts: { url: string; from: string; timeoutMs?: number }): EmailProvider {
  const timeout = opts.timeoutMs ?? 10_000;
  const url = new URL(opts.url);
  const secure = url.protocol === "smtps:";
  const transport = createTransport(
    {
      host: url.hostname,
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      // Codes must not cross a network in clear: STARTTLS is required except to a relay on this machine.
      requireTLS: !secure && !LOOPBACK.has(url.hostname),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    },
    { from: opts.from },
  );
  return {
    name: "smtp",
    async deliver(message) {
      const info = await transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
      return { providerMessageId: info.messageId ?? null };
    },
  };
}

/** Sends an e-mail now, while the caller waits (codes are wanted at once). */
export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}

/**
 * Every message is written to email_outbox as "sending" before the provider
 * is called, then marked sent or failed: the table is the record of what went
 * out, and a failure reaches the caller.
 */
export function createEmailSender(db: Database, provider: EmailProvider, now: () => Date): EmailSender {
  // The outbox provider's row is the delivery (development reads codes from it); a real provider
  // delivers, so the record keeps the message without its code: a leaked table or backup proves nothing.
  const recorded = (text: string) => (provider.name === "outbox" ? text : withoutCodes(text));
  return {
    async send(message) {
      const [row] = await db
        .insert(emailOutbox)
        .values({
          userId: message.userId,
          toAddress: message.to,
          subject: recorded(message.subject),
          body: recorded(message.text),
          createdAt: now(),
        })
        .returning({ id: emailOutbox.id });
      try {
        const { providerMessageId } = await provider.deliver({
          to: message.to,
          subject: message.subject,
          text: message.text,
        });
        await db
          .update(emailOutbox)
          .set({ status: "sent", sentAt: now(), providerMessageId })
          .where(eq(emailOutbox.id, row!.id));
      } catch (error) {
        await db
          .update(emailOutbox)
          .set({ status: "failed", lastError: errorText(error) })
          .where(eq(emailOutbox.id, row!.id));
        throw error;
      }
    },
  };
}

/** A message as recorded for a real provider: every 6-digit code replaced by dots. */
export const withoutCodes = (text: string): string => text.replace(/\b\d{6}\b/g, "••••••");

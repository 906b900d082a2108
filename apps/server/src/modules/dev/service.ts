import type { Database } from "@quad/db";
import { emailOutbox, smsOutbox } from "@quad/db/schema";
import { and, desc, eq, inArray } from "drizzle-orm";

/** What the outbox SMS provider "sent" to one phone, newest first, as that phone would show it. */
export async function smsOutboxOf(db: Database, phone: string) {
  const rows = await db
    .select({ to: smsOutbox.toPhone, body: smsOutbox.body, createdAt: smsOutbox.createdAt })
    .from(smsOutbox)
    // What went out: queued, failed or withheld texts never reached the phone.
    .where(and(eq(smsOutbox.toPhone, phone), inArray(smsOutbox.status, ["sent", "delivered"])))
    .orderBy(desc(smsOutbox.createdAt))
    .limit(50);
  return { messages: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
}

/** What the outbox e-mail provider "sent" to one address, newest first, as that inbox would show it. */
export async function emailOutboxOf(db: Database, to: string) {
  const rows = await db
    .select({
      to: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      body: emailOutbox.body,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.status, "sent")))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(50);
  return { messages: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
}

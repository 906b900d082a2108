import { emailOutbox, smsOutbox } from "@quad/db/schema";
import { and, desc, eq, inArray } from "drizzle-orm";
import { endpoint } from "../../trpc/endpoints";
import { router } from "../../trpc/init";

/** Development helpers (`devOnly` rows): not found in production, whatever ALLOW_DEV_PROVIDERS says (env.ts). */

export const devRouter = router({
  /** What the outbox SMS provider "sent" to one phone, newest first, as that phone would show it. */
  smsOutbox: endpoint("dev.smsOutbox").query(async ({ ctx, input }) => {
    const rows = await ctx.db
      .select({ to: smsOutbox.toPhone, body: smsOutbox.body, createdAt: smsOutbox.createdAt })
      .from(smsOutbox)
      // What went out: queued, failed or withheld texts never reached the phone.
      .where(and(eq(smsOutbox.toPhone, input.phone), inArray(smsOutbox.status, ["sent", "delivered"])))
      .orderBy(desc(smsOutbox.createdAt))
      .limit(50);
    return { messages: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
  }),
  /** What the outbox e-mail provider "sent" to one address, newest first, as that inbox would show it. */
  emailOutbox: endpoint("dev.emailOutbox").query(async ({ ctx, input }) => {
    const rows = await ctx.db
      .select({
        to: emailOutbox.toAddress,
        subject: emailOutbox.subject,
        body: emailOutbox.body,
        createdAt: emailOutbox.createdAt,
      })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, input.to), eq(emailOutbox.status, "sent")))
      .orderBy(desc(emailOutbox.createdAt))
      .limit(50);
    return { messages: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
  }),
});

import type { Database } from "@quad/db";
import { schools, smsOutbox, users, type SmsStatus } from "@quad/db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { smsTexts } from "../../metrics/registry";
import { recordSmsKeywordConsent, smsAllowedPhones } from "../consents/service";
import { forEachConcurrently, OUTBOX, outbox } from "../../outbox/outbox";
import { errorText, SmsDeliveryError, type SmsKind, type SmsProvider } from "./sender";

export interface SmsQueueDeps {
  db: Database;
  provider: SmsProvider;
  now: () => Date;
  /** Stop claiming more once aborted (shutdown); messages in flight finish. */
  signal?: AbortSignal;
}

export interface DrainReport {
  sent: number;
  retrying: number;
  failed: number;
  /** Were "sending" past the timeout: outcome unknown, marked failed. */
  abandoned: number;
  /** Not sent because the number may no longer be texted. */
  suppressed: number;
}

/**
 * Sends queued messages through the provider, each at most once, by the
 * outbox's rules (claimed just before the provider call, a stale claim
 * failed, a retryable failure retried with back-off up to maxAttempts,
 * anything else failed). Vote notices are held during the recipient's quiet
 * hours and dropped if the number may no longer be texted.
 */
export async function sendQueuedMessages(deps: SmsQueueDeps): Promise<DrainReport> {
  const { db } = deps;
  const report: DrainReport = { sent: 0, retrying: 0, failed: 0, abandoned: 0, suppressed: 0 };

  const queue = outbox(db, smsOutbox);
  report.abandoned = await queue.drain(
    deps,
    (where, order, limit) =>
      db
        .select({
          id: smsOutbox.id,
          to: smsOutbox.toPhone,
          body: smsOutbox.body,
          kind: smsOutbox.kind,
          timeZone: schools.timeZone,
        })
        .from(smsOutbox)
        .leftJoin(users, eq(users.phone, smsOutbox.toPhone))
        .leftJoin(schools, eq(schools.id, users.schoolId))
        .where(where)
        .orderBy(...order)
        .limit(limit),
    (sendable) => claimAndSend(deps, queue, sendable, report),
    (message) => message.kind === "notification",
  );
  return report;
}

interface DueMessage {
  id: string;
  to: string;
  body: string;
  kind: SmsKind;
}

/**
 * Each message is claimed (queued → sending) only when a worker is about to
 * hand it to the provider, so a crash leaves at most `concurrency` messages
 * "sending" (in doubt) and the rest queued for the next run.
 */
async function claimAndSend(
  deps: SmsQueueDeps,
  queue: ReturnType<typeof outbox>,
  due: DueMessage[],
  report: DrainReport,
): Promise<void> {
  const { db } = deps;
  const allowed = await smsAllowedPhones(
    db,
    due.filter((m) => needsConsent(m.kind)).map((m) => m.to),
  );

  await forEachConcurrently(due, OUTBOX.concurrency, deps.signal, async (message) => {
    if (needsConsent(message.kind) && !allowed.has(message.to)) {
      const dropped = await db
        .update(smsOutbox)
        .set({ status: "failed", lastError: "not sent: the number no longer consents to texts" })
        .where(and(eq(smsOutbox.id, message.id), eq(smsOutbox.status, "queued")))
        .returning({ id: smsOutbox.id });
      report.suppressed += dropped.length;
      return;
    }
    const attempts = await queue.claim(message.id, deps.now());
    if (attempts === null) return; // another sender has it

    let delivered = false;
    try {
      const { providerMessageId } = await deps.provider.deliver({ to: message.to, body: message.body });
      delivered = true;
      smsTexts.inc({ kind: message.kind, outcome: "sent" });
      await queue.finish(message.id, { status: "sent", sentAt: deps.now(), providerMessageId, lastError: null });
      report.sent++;
    } catch (error) {
      if (!delivered) smsTexts.inc({ kind: message.kind, outcome: "failed" });
      const retryable = error instanceof SmsDeliveryError && error.retryable;
      const outcome = await queue.settleFailure(
        message.id,
        attempts,
        { retryable, message: errorText(error) },
        deps.now(),
      );
      report[outcome]++;
      // The carrier has the number opted out (a STOP we never saw): record it, so nothing more is queued for it.
      if (outcome === "failed" && error instanceof SmsDeliveryError && error.recipientOptedOut) {
        await recordSmsKeywordConsent(db, message.to, CARRIER_OPT_OUT, false, deps.now());
      }
    }
  });
}

const needsConsent = (kind: SmsKind) => kind !== "code";

/** The consent record's keyword when the carrier, not an inbound text, told us of the STOP. */
const CARRIER_OPT_OUT = "STOP (carrier, Twilio 21610)";

/** Twilio's MessageStatus values we record; the others (queued, sending, accepted...) change nothing. */
const CALLBACK_STATUS: Record<string, SmsStatus> = {
  sent: "sent",
  delivered: "delivered",
  read: "delivered",
  undelivered: "failed",
  failed: "failed",
};

/** Statuses each recorded status may follow: a late "sent" never undoes "delivered". */
const MAY_FOLLOW: Record<SmsStatus, SmsStatus[]> = {
  queued: [],
  sending: [],
  sent: ["sending"],
  delivered: ["sending", "sent"],
  failed: ["sending", "sent"],
};

/** A delivery status callback: moves the message forward, never back. Answers whether it matched. */
export async function applyDeliveryStatus(
  db: Database,
  update: { providerMessageId: string; status: string; errorCode?: string | null },
): Promise<boolean> {
  // Own keys only: "constructor" or "__proto__" are no status (Object.prototype would answer them).
  const status = Object.hasOwn(CALLBACK_STATUS, update.status) ? CALLBACK_STATUS[update.status] : undefined;
  if (!status) return false;
  const rows = await db
    .update(smsOutbox)
    .set({
      status,
      ...(status === "failed"
        ? { lastError: `${update.status}${update.errorCode ? ` (Twilio error ${update.errorCode})` : ""}` }
        : {}),
    })
    .where(
      and(eq(smsOutbox.providerMessageId, update.providerMessageId), inArray(smsOutbox.status, MAY_FOLLOW[status])),
    )
    .returning({ id: smsOutbox.id });
  return rows.length > 0;
}

import { VOTE_NOTICE, VOTE_NOTICE_PATH, voteNoticeText } from "@quad/contracts";
import { queryRows, type Database } from "@quad/db";
import { pushDeliveries, pushNotices, pushSubscriptions, smsOutbox, votes } from "@quad/db/schema";
import { and, count, eq, gte, isNull, lte, sql } from "drizzle-orm";
import { smsAllowedPhones } from "../consents/service";
import { studentsWithPush } from "../push/subscriptions";
import { publicUrlOf } from "../sms/public-url";
import { FALLBACK_TIME_ZONE, isQuietHour, startOfLocalDay } from "../../outbox/local-time";

export interface VoteNoticeDeps {
  db: Database;
  now: () => Date;
  /** PUBLIC_URL: the notice links to $PUBLIC_URL/home. */
  publicUrl: string;
  /** Web Push is on: students with a subscribed device get a push instead of a text. */
  pushEnabled?: boolean;
  /** Shutdown: stop before the next student; the others wait for the next run. */
  signal?: AbortSignal;
}

export interface VoteNoticeReport {
  /** Texts queued. */
  queued: number;
  /** Push notices queued (one per student, delivered to each of their devices). */
  pushed: number;
  /** Waiting for the end of quiet hours in their school's zone. */
  quiet: number;
  /** Already had their notices for today (local day). */
  capped: number;
  /** No device with push on, and did not consent, turned texts off, or replied STOP: never texted. */
  noConsent: number;
}

/**
 * Students with votes waiting, one probe of the partial index
 * votes_unnotified_delivery_idx per student (a loose index scan): the votes of a
 * student who never consents wait for good, so reading every waiting vote,
 * as a DISTINCT over them did, would cost more every run without bound;
 * students are a bounded set.
 */
export const waitingRecipients = (now: Date) => sql`
  with recursive waiting(id) as (
    (select recipient_id from votes where notified_at is null and delivered_at <= ${now.toISOString()}::timestamptz
     order by recipient_id limit 1)
    union all
    select (select v.recipient_id from votes v
            where v.notified_at is null and v.delivered_at <= ${now.toISOString()}::timestamptz and v.recipient_id > w.id
            order by v.recipient_id limit 1)
    from waiting w where w.id is not null
  )
  select u.id as "userId", u.phone, s.time_zone as "timeZone"
  from waiting w join users u on u.id = w.id left join schools s on s.id = u.school_id`;

/**
 * Queues one notice per student with votes delivered and not yet counted in
 * a notice (votes.notified_at is null; a vote before its delivery moment
 * waits for the first tick after it): a push to each of their devices when they
 * turned push on for one, else a text (docs/decisions/0018-web-push-and-the-service-worker.md).
 * Students in quiet hours, at the daily cap (texts and pushes together) or
 * with neither channel are skipped and keep their votes un-notified, so the
 * next allowed notice counts them all. Marking the votes and queueing the
 * notice commit together: a vote is counted in exactly one notice.
 */
export async function queueVoteNotices(deps: VoteNoticeDeps): Promise<VoteNoticeReport> {
  const { db } = deps;
  const now = deps.now();
  const report: VoteNoticeReport = { queued: 0, pushed: 0, quiet: 0, capped: 0, noConsent: 0 };
  const homeUrl = publicUrlOf(deps.publicUrl, VOTE_NOTICE_PATH);

  const recipients = await queryRows<{ userId: string; phone: string; timeZone: string | null }>(
    db,
    waitingRecipients(now),
  );
  if (recipients.length === 0) return report;

  const allowed = await smsAllowedPhones(
    db,
    recipients.map((r) => r.phone),
  );
  const withPush = deps.pushEnabled
    ? await studentsWithPush(
        db,
        recipients.map((r) => r.userId),
      )
    : new Set<string>();

  for (const recipient of recipients) {
    if (deps.signal?.aborted) break;
    const timeZone = recipient.timeZone ?? FALLBACK_TIME_ZONE;
    const channel = withPush.has(recipient.userId) ? "push" : allowed.has(recipient.phone) ? "sms" : undefined;
    if (!channel) {
      report.noConsent++;
      continue;
    }
    if (isQuietHour(now, timeZone)) {
      report.quiet++;
      continue;
    }
    const outcome = await db.transaction((tx) => queueNotice(tx, { ...recipient, timeZone, channel, now, homeUrl }));
    if (outcome === "queued") report.queued++;
    if (outcome === "pushed") report.pushed++;
    if (outcome === "capped") report.capped++;
  }
  return report;
}

export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Serialises notices to one student (the job's, and a push's fallback to a text). */
export async function lockStudentNotices(tx: Transaction, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"vote-notice:" + userId}))`);
}

export interface NoticeTo {
  userId: string;
  phone: string;
  timeZone: string;
  channel: "push" | "sms";
  now: Date;
  homeUrl: string;
}

/** One student's notice, in one transaction: the cap, the votes it counts, the text or the pushes. */
export async function queueNotice(tx: Transaction, to: NoticeTo): Promise<"queued" | "pushed" | "capped" | "none"> {
  const { now } = to;
  // Serialises notices to one student even if two runs ever overlapped.
  await lockStudentNotices(tx, to.userId);
  const dayStart = startOfLocalDay(now, to.timeZone);
  const [texted] = await tx
    .select({ n: count() })
    .from(smsOutbox)
    .where(
      and(eq(smsOutbox.toPhone, to.phone), eq(smsOutbox.kind, "notification"), gte(smsOutbox.createdAt, dayStart)),
    );
  const [pushed] = await tx
    .select({ n: count() })
    .from(pushNotices)
    .where(and(eq(pushNotices.userId, to.userId), gte(pushNotices.createdAt, dayStart)));
  // One cap for both channels: a student who turns push on or off mid-day gets no more notices for it.
  if ((texted?.n ?? 0) + (pushed?.n ?? 0) >= VOTE_NOTICE.maxPerDay) return "capped";
  const devices =
    to.channel === "push"
      ? await tx
          .select({ id: pushSubscriptions.id })
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.userId, to.userId))
      : [];
  // The last device was removed since the run began: the votes wait for the next run's choice.
  if (to.channel === "push" && devices.length === 0) return "none";
  const counted = await tx
    .update(votes)
    .set({ notifiedAt: now })
    .where(and(eq(votes.recipientId, to.userId), isNull(votes.notifiedAt), lte(votes.deliveredAt, now)))
    .returning({ id: votes.id });
  if (counted.length === 0) return "none";
  if (to.channel === "push") {
    const [notice] = await tx
      .insert(pushNotices)
      .values({ userId: to.userId, voteCount: counted.length, createdAt: now })
      .returning({ id: pushNotices.id });
    await tx
      .insert(pushDeliveries)
      .values(devices.map((device) => ({ noticeId: notice!.id, subscriptionId: device.id, createdAt: now })));
    return "pushed";
  }
  await tx.insert(smsOutbox).values({
    toPhone: to.phone,
    body: voteNoticeText(counted.length, to.homeUrl),
    kind: "notification",
    status: "queued",
    createdAt: now,
  });
  return "queued";
}

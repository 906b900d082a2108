import { VOTE_NOTICE, VOTE_NOTICE_PATH, voteNoticeText } from "@quad/contracts";
import { queryRows, type Database } from "@quad/db";
import { smsOutbox, votes } from "@quad/db/schema";
import { and, count, eq, gte, isNull, sql } from "drizzle-orm";
import { smsAllowedPhones } from "../consents/service";
import { publicUrlOf } from "../sms/public-url";
import { FALLBACK_TIME_ZONE, isQuietHour, startOfLocalDay } from "./local-time";

export interface VoteNoticeDeps {
  db: Database;
  now: () => Date;
  /** PUBLIC_URL: the notice links to $PUBLIC_URL/home. */
  publicUrl: string;
  /** Shutdown: stop before the next student; the others wait for the next run. */
  signal?: AbortSignal;
}

export interface VoteNoticeReport {
  queued: number;
  /** Waiting for the end of quiet hours in their school's zone. */
  quiet: number;
  /** Already had their notices for today (local day). */
  capped: number;
  /** Did not consent, turned texts off, or replied STOP: never texted. */
  noConsent: number;
}

/**
 * Students with votes waiting, one probe of the partial index
 * votes_unnotified_idx per student (a loose index scan): the votes of a
 * student who never consents wait for good, so reading every waiting vote,
 * as a DISTINCT over them did, would cost more every run without bound;
 * students are a bounded set.
 */
export const waitingRecipients = sql`
  with recursive waiting(id) as (
    (select recipient_id from votes where notified_at is null order by recipient_id limit 1)
    union all
    select (select v.recipient_id from votes v
            where v.notified_at is null and v.recipient_id > w.id order by v.recipient_id limit 1)
    from waiting w where w.id is not null
  )
  select u.id as "userId", u.phone, s.time_zone as "timeZone"
  from waiting w join users u on u.id = w.id left join schools s on s.id = u.school_id`;

/**
 * Queues one notice per student with votes not yet counted in a notice
 * (votes.notified_at is null). Students in quiet hours, at the daily cap or
 * without consent are skipped and keep their votes un-notified, so the next
 * allowed notice counts them all. Marking the votes and queueing the notice
 * commit together: a vote is counted in exactly one notice.
 */
export async function queueVoteNotices(deps: VoteNoticeDeps): Promise<VoteNoticeReport> {
  const { db } = deps;
  const now = deps.now();
  const report: VoteNoticeReport = { queued: 0, quiet: 0, capped: 0, noConsent: 0 };
  const homeUrl = publicUrlOf(deps.publicUrl, VOTE_NOTICE_PATH);

  const recipients = await queryRows<{ userId: string; phone: string; timeZone: string | null }>(db, waitingRecipients);
  if (recipients.length === 0) return report;

  const allowed = await smsAllowedPhones(
    db,
    recipients.map((r) => r.phone),
  );

  for (const recipient of recipients) {
    if (deps.signal?.aborted) break;
    const timeZone = recipient.timeZone ?? FALLBACK_TIME_ZONE;
    if (!allowed.has(recipient.phone)) {
      report.noConsent++;
      continue;
    }
    if (isQuietHour(now, timeZone)) {
      report.quiet++;
      continue;
    }
    const outcome = await db.transaction(async (tx) => {
      // Serialises notices to one student even if two runs ever overlapped.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"vote-notice:" + recipient.userId}))`);
      const [today] = await tx
        .select({ n: count() })
        .from(smsOutbox)
        .where(
          and(
            eq(smsOutbox.toPhone, recipient.phone),
            eq(smsOutbox.kind, "notification"),
            gte(smsOutbox.createdAt, startOfLocalDay(now, timeZone)),
          ),
        );
      if ((today?.n ?? 0) >= VOTE_NOTICE.maxPerDay) return "capped" as const;
      const counted = await tx
        .update(votes)
        .set({ notifiedAt: now })
        .where(and(eq(votes.recipientId, recipient.userId), isNull(votes.notifiedAt)))
        .returning({ id: votes.id });
      if (counted.length === 0) return "none" as const;
      await tx.insert(smsOutbox).values({
        toPhone: recipient.phone,
        body: voteNoticeText(counted.length, homeUrl),
        kind: "notification",
        status: "queued",
        createdAt: now,
      });
      return "queued" as const;
    });
    if (outcome === "queued") report.queued++;
    if (outcome === "capped") report.capped++;
  }
  return report;
}

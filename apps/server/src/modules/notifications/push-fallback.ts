import { VOTE_NOTICE_PATH } from "@quad/contracts";
import type { Database } from "@quad/db";
import { pushDeliveries, pushNotices, schools, users, votes } from "@quad/db/schema";
import { and, eq, inArray, notExists, sql } from "drizzle-orm";
import { smsAllowedPhones } from "../consents/service";
import { publicUrlOf } from "../sms/public-url";
import { FALLBACK_TIME_ZONE, isQuietHour } from "../../outbox/local-time";
import { lockStudentNotices, queueNotice } from "./vote-notices";

export interface PushFallbackDeps {
  db: Database;
  now: () => Date;
  /** PUBLIC_URL: the text links to $PUBLIC_URL/home. */
  publicUrl: string;
}

export interface PushFallbackReport {
  /** Notices no device received, now texted instead. */
  texted: number;
  /** Notices no device received whose votes wait again (no consent, quiet hours, the daily cap). */
  waiting: number;
}

/**
 * For the push notices given, those that no device received and none will
 * (no delivery queued, in flight or sent: every try failed, or the devices
 * are gone) are undone: the notice no longer counts against the daily cap,
 * its votes are waiting again, and they go out as a text at once if the SMS
 * rules allow one now (consent and STOP, quiet hours, the shared daily cap,
 * as the 10-minute job applies them). Otherwise the votes wait, like any
 * student's, for the next notice the rules allow. Each notice is undone once
 * however many of its deliveries end at the same moment.
 */
export function textInsteadOfPush(deps: PushFallbackDeps) {
  return async (noticeIds: readonly string[]): Promise<PushFallbackReport> => {
    const report: PushFallbackReport = { texted: 0, waiting: 0 };
    for (const noticeId of new Set(noticeIds)) {
      const outcome = await fallBack(deps, noticeId);
      if (outcome) report[outcome]++;
    }
    return report;
  };
}

async function fallBack(deps: PushFallbackDeps, noticeId: string): Promise<"texted" | "waiting" | undefined> {
  const { db } = deps;
  const [student] = await db
    .select({ userId: pushNotices.userId, phone: users.phone, timeZone: schools.timeZone })
    .from(pushNotices)
    .innerJoin(users, eq(users.id, pushNotices.userId))
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(eq(pushNotices.id, noticeId));
  if (!student) return undefined;
  const now = deps.now();
  const timeZone = student.timeZone ?? FALLBACK_TIME_ZONE;
  // Read before the transaction, as the job does; the SMS queue checks consent again when it sends.
  const textable = (await smsAllowedPhones(db, [student.phone])).has(student.phone) && !isQuietHour(now, timeZone);

  return db.transaction(async (tx) => {
    await lockStudentNotices(tx, student.userId);
    const [undone] = await tx
      .delete(pushNotices)
      .where(
        and(
          eq(pushNotices.id, noticeId),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(pushDeliveries)
              .where(
                and(
                  eq(pushDeliveries.noticeId, pushNotices.id),
                  inArray(pushDeliveries.status, ["queued", "sending", "sent"]),
                ),
              ),
          ),
        ),
      )
      .returning({ createdAt: pushNotices.createdAt });
    // Reached a device, still being tried, or already undone by another delivery's end.
    if (!undone) return undefined;
    // The notice marked its votes with its own time, in the transaction that queued it.
    await tx
      .update(votes)
      .set({ notifiedAt: null })
      .where(and(eq(votes.recipientId, student.userId), eq(votes.notifiedAt, undone.createdAt)));
    if (!textable) return "waiting";
    const homeUrl = publicUrlOf(deps.publicUrl, VOTE_NOTICE_PATH);
    const outcome = await queueNotice(tx, { ...student, timeZone, channel: "sms", now, homeUrl });
    return outcome === "queued" ? "texted" : "waiting";
  });
}

import { ERROR_MESSAGES, INBOX_NEW_VOTES_MAX, type NewVotes } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { DELIVERY_HOUR } from "@quad/db/schema";
import { sql } from "drizzle-orm";
import { AppError } from "../../errors";
import { memberSql, notMemberError } from "../schools/membership";

/**
 * New votes are the ones delivered after the student last opened the inbox
 * (users.inbox_opened_at, kept on the server so every device agrees) and by
 * now: a vote not yet delivered counts for no one. The
 * answer is a number and nothing else: it equals the cards on the list now
 * that were not on it when the student opened it, which the student saw
 * both times, so it says no more than the list does (locked cards carry
 * their hour only, and which card is new is never said). Opening the inbox
 * is what a student can see, so the same rule as the list decides who may
 * ask: a proved member of a school.
 */
interface Row {
  member: boolean;
  count: number;
}

/** Counted up to the cap only, by the recipient's index: the hour condition lets it skip older hours. */
const countStatement = preparedStatement<{ phone: string; now: string }>(
  (p) => sql`
    select ${memberSql("me")} as member,
      (select count(*)::int from (
        select 1 from votes
        where recipient_id = me.id
          and ${DELIVERY_HOUR} >= date_trunc('hour', me.inbox_opened_at at time zone 'UTC')
          and delivered_at > me.inbox_opened_at and delivered_at <= ${p.now}::timestamptz
        limit ${sql.raw(String(INBOX_NEW_VOTES_MAX))}
      ) n) as count
    from users me where me.phone = ${p.phone}`,
);

/** Opening moves the mark to now, only for a member (one statement: the check and the write together). */
const markStatement = preparedStatement<{ phone: string; now: string }>(
  (p) => sql`
    with me as (select id, ${memberSql("users")} as member from users where phone = ${p.phone}),
    marked as (
      update users set inbox_opened_at = ${p.now}::timestamptz
      from me where users.id = me.id and me.member
      returning users.id
    )
    select me.member from me`,
);

/** GET /votes/new-count. */
export async function newVotes(db: Database, phone: string, now: Date): Promise<NewVotes> {
  const [row] = await countStatement<Row>(db, { phone, now: now.toISOString() });
  if (!row) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  if (!row.member) throw notMemberError();
  return { count: Number(row.count) };
}

/** POST /votes/opened: from now on, only later votes are new. */
export async function markInboxOpened(db: Database, phone: string, now: Date): Promise<NewVotes> {
  const [row] = await markStatement<{ member: boolean }>(db, { phone, now: now.toISOString() });
  if (!row) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  if (!row.member) throw notMemberError();
  return { count: 0 };
}

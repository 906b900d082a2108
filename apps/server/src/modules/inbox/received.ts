import { ERROR_MESSAGES, type InboxPage } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { DELIVERY_HOUR, users } from "@quad/db/schema";
import { eq, sql } from "drizzle-orm";
import { AppError } from "../../errors";
import { memberSql, notMemberError } from "../schools/membership";
import { hourOf, isoMillis, toVoteCard, type RevealedVoter } from "./cards";

export async function userIdByPhone(db: Database, phone: string): Promise<string> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone));
  if (!user) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  return user.id;
}

interface Cursor {
  /** The UTC hour of the last card shown ("…T14:00:00.000Z"): no finer than the card itself. */
  hour: string;
  id: string;
}

/** ISO 8601 in UTC; cursors issued before paging by hour held the exact time, taken here to its hour. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:\d{2})?)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** An hour Postgres can read back: years 1 to 9999 (a forged cursor can name any instant). */
const HOUR = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/;

/** Opaque to clients: the (hour, id) of the last card shown. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.hour, cursor.id])).toString("base64url");
}

export function decodeCursor(text: string): Cursor {
  try {
    const [time, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as [unknown, unknown];
    if (typeof time !== "string" || !TIMESTAMP.test(time) || Number.isNaN(Date.parse(time))) throw new Error("bad");
    if (typeof id !== "string" || !UUID.test(id)) throw new Error("bad");
    const hour = hourOf(new Date(time).toISOString());
    if (!HOUR.test(hour)) throw new Error("bad");
    return { hour, id };
  } catch {
    throw new AppError("BAD_REQUEST", "Invalid cursor", { fieldErrors: { cursor: ["Invalid cursor"] } });
  }
}

interface PageRow {
  /** Null on the one row answered for a recipient with no votes on this page. */
  id: string | null;
  prompt: string;
  deliveredAt: string;
  /** The voter's profile, read only when this recipient unlocked them. */
  revealed: unknown;
  /** The recipient proved membership of their school (else the inbox is closed). */
  member: boolean;
}

/**
 * GET /votes/for-user: received votes delivered by now, newest delivery
 * hour first, in one statement (the recipient by phone, the page, its
 * prompts, unlocks and voters). Within an hour the order is the vote id's
 * (random), so a card's place among its neighbours says no more than its
 * hour; nothing is ordered by when a vote was cast. A vote not yet
 * delivered is on no page, in no cursor and in no `hasMore`. The page's keys
 * are read first by an index-only scan of votes_recipient_delivery_idx, then
 * only its rows are fetched: with a cursor the row comparison
 * `(hour, id) < (…)` is an index condition, so any depth costs what page 1
 * costs; an OFFSET (`page`, kept for the product's clients) still walks the
 * skipped keys, but in the index alone, never in the table.
 */
interface PageValues {
  phone: string;
  /** ISO 8601: votes delivered by then. */
  now: string;
  /** One more than the page size: a row past the page means hasMore. */
  take: number;
  skip: number;
  /** The cursor's (hour, id), or empty strings for a page by number (unused then). */
  afterHour: string;
  afterId: string;
}

/** The page statement, with the keyset condition (by cursor) or without it (by page number). */
const pageStatement = (byCursor: boolean) =>
  preparedStatement<PageValues>((p) => {
    const keyset = byCursor
      ? sql`and (${DELIVERY_HOUR}, id) < (${p.afterHour}::timestamptz at time zone 'UTC', ${p.afterId}::uuid)`
      : sql``;
    return sql`
      select v.id, p.text as prompt, to_json(k.delivered_at) #>> '{}' as "deliveredAt",
             case when unlocked.voter_id is not null then json_build_object(
               'firstName', voter.first_name, 'graduationYear', voter.graduation_year, 'instagramHandle', voter.instagram_handle,
               'emojis', voter.emojis, 'photoKey', voter.photo_key) end as revealed,
             ${memberSql("me")} as member
      from users me
      left join lateral (
        select id, ${DELIVERY_HOUR} as hour, delivered_at from votes
        where recipient_id = me.id and delivered_at <= ${p.now}::timestamptz ${keyset}
        order by ${DELIVERY_HOUR} desc, id desc
        limit ${p.take} offset ${p.skip}
      ) k on true
      left join votes v on v.id = k.id
      left join prompts p on p.id = v.prompt_id
      left join users voter on voter.id = v.voter_id
      left join unlocks unlocked on unlocked.owner_id = me.id and unlocked.voter_id = v.voter_id
      where me.phone = ${p.phone}
      order by k.hour desc, k.id desc`;
  });
const pageByCursor = pageStatement(true);
const pageByNumber = pageStatement(false);

/** GET /votes/for-user: only a proved member of a school opens the inbox. */
export async function receivedVotes(
  db: Database,
  phone: string,
  input: { page: number; limit: number; cursor?: string },
  now: Date,
): Promise<InboxPage> {
  const { page, member } = await readVotesPage(db, phone, input, now);
  if (!member) throw notMemberError();
  return page;
}

/** A page of received votes, and whether the recipient proved membership (the export reads it either way). */
export async function readVotesPage(
  db: Database,
  phone: string,
  input: { page: number; limit: number; cursor?: string },
  now: Date,
): Promise<{ page: InboxPage; member: boolean }> {
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const values: PageValues = {
    phone,
    now: now.toISOString(),
    take: input.limit + 1,
    skip: after ? 0 : (input.page - 1) * input.limit,
    afterHour: after?.hour ?? "",
    afterId: after?.id ?? "",
  };
  const rows = await (after ? pageByCursor : pageByNumber)<PageRow>(db, values);
  if (rows.length === 0) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  const found = rows.filter((row) => row.id !== null);
  const hasMore = found.length > input.limit;
  const pageRows = found.slice(0, input.limit);
  const last = pageRows[pageRows.length - 1];
  const page = {
    // The card's fields named, not the row spread: a spread copies every column of postgres.js's row.
    votes: pageRows.map((row) =>
      toVoteCard({
        id: row.id!,
        prompt: row.prompt,
        deliveredAt: row.deliveredAt,
        revealed: row.revealed === null ? null : fromJson<RevealedVoter>(row.revealed),
      }),
    ),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ hour: hourOf(isoMillis(last.deliveredAt)), id: last.id! }) : null,
  };
  return { page, member: rows[0]!.member };
}

/** postgres.js and PGlite both parse json columns; a string is parsed here just in case. */
const fromJson = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

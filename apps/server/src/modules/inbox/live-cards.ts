import type { VoteCard } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { sql } from "drizzle-orm";
import { toVoteCard, type RevealedVoter } from "./cards";

/** Where a resume starts: a vote's exact time and id (never shown to the client in the clear: modules/live/event-ids.ts). */
export interface VotePosition {
  /** ISO 8601 in UTC, to the millisecond. */
  at: string;
  id: string;
}

interface CardRow {
  id: string;
  prompt: string;
  createdAt: string;
  revealed: unknown;
}

interface SinceValues {
  recipientId: string;
  at: string;
  id: string;
  /** Empty for every vote after the position, else only this vote (the one just cast). */
  only: string;
  take: number;
}

/**
 * A recipient's cards after a position, oldest first, as the inbox shows
 * them (toVoteCard: locked unless this recipient unlocked the voter). The
 * stream reads one card this way when a vote is announced, and the votes a
 * resumed stream missed.
 */
const cardsStatement = preparedStatement<SinceValues>(
  (p) => sql`
    select v.id, p.text as prompt, to_json(v.created_at) #>> '{}' as "createdAt",
           case when unlocked.voter_id is not null then json_build_object(
             'firstName', voter.first_name, 'graduationYear', voter.graduation_year, 'instagramHandle', voter.instagram_handle,
             'emojis', voter.emojis, 'photoKey', voter.photo_key) end as revealed
    from votes v
    join prompts p on p.id = v.prompt_id
    left join users voter on voter.id = v.voter_id
    left join unlocks unlocked on unlocked.owner_id = v.recipient_id and unlocked.voter_id = v.voter_id
    where v.recipient_id = ${p.recipientId}::uuid
      and (${p.only} = '' or v.id = nullif(${p.only}, '')::uuid)
      and (v.created_at, v.id) > (${p.at}::timestamptz, ${p.id}::uuid)
    order by v.created_at, v.id
    limit ${p.take}`,
);

const NO_ID = "00000000-0000-0000-0000-000000000000";

export interface PositionedCard {
  card: VoteCard;
  position: VotePosition;
}

export async function cardsSince(
  db: Database,
  recipientId: string,
  after: VotePosition,
  take: number,
  only?: string,
): Promise<PositionedCard[]> {
  const rows = await cardsStatement<CardRow>(db, { recipientId, at: after.at, id: after.id, only: only ?? "", take });
  return rows.map((row) => {
    const card = toVoteCard({
      id: row.id,
      prompt: row.prompt,
      createdAt: row.createdAt,
      revealed: row.revealed === null ? null : fromJson<RevealedVoter>(row.revealed),
    });
    return { card, position: { at: new Date(row.createdAt).toISOString(), id: row.id } };
  });
}

/** The card of one vote just cast for this recipient (none if it is not theirs, or gone). */
export async function cardOf(db: Database, recipientId: string, voteId: string): Promise<PositionedCard | undefined> {
  const [found] = await cardsSince(db, recipientId, { at: "1970-01-01T00:00:00.000Z", id: NO_ID }, 1, voteId);
  return found;
}

/** The position before any vote cast from `at` on. */
export const positionAt = (at: Date): VotePosition => ({ at: at.toISOString(), id: NO_ID });

const fromJson = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

import type { VoteCard } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { DELIVERY_HOUR } from "@quad/db/schema";
import { sql } from "drizzle-orm";
import { toVoteCard, type RevealedVoter } from "./cards";

/** The columns of a card, as the inbox reads them (toVoteCard: locked unless this recipient unlocked the voter). */
const cardColumns = sql`
  v.id, v.recipient_id as "recipientId", p.text as prompt, to_json(v.delivered_at) #>> '{}' as "deliveredAt",
  case when unlocked.voter_id is not null then json_build_object(
    'firstName', voter.first_name, 'graduationYear', voter.graduation_year, 'instagramHandle', voter.instagram_handle,
    'emojis', voter.emojis, 'photoKey', voter.photo_key) end as revealed`;
const cardJoins = sql`
  join prompts p on p.id = v.prompt_id
  left join users voter on voter.id = v.voter_id
  left join unlocks unlocked on unlocked.owner_id = v.recipient_id and unlocked.voter_id = v.voter_id`;

interface CardRow {
  id: string;
  recipientId: string;
  prompt: string;
  deliveredAt: string;
  revealed: unknown;
}

export interface DeliveredCard {
  recipientId: string;
  card: VoteCard;
}

const toDelivered = (row: CardRow): DeliveredCard => ({
  recipientId: row.recipientId,
  card: toVoteCard({
    id: row.id,
    prompt: row.prompt,
    deliveredAt: row.deliveredAt,
    revealed: row.revealed === null ? null : fromJson<RevealedVoter>(row.revealed),
  }),
});

/** Every vote whose delivery moment fell in (after, until], by votes_delivered_idx: what the live tick announces. */
const dueStatement = preparedStatement<{ after: string; until: string }>(
  (p) => sql`
    select id, recipient_id as "recipientId" from votes
    where delivered_at > ${p.after}::timestamptz and delivered_at <= ${p.until}::timestamptz`,
);

export async function votesDueBetween(
  db: Database,
  after: Date,
  until: Date,
): Promise<{ id: string; recipientId: string }[]> {
  return dueStatement(db, { after: after.toISOString(), until: until.toISOString() });
}

const cardsByIdStatement = preparedStatement<{ ids: string }>(
  (p) => sql`select ${cardColumns} from votes v ${cardJoins} where v.id = any(${p.ids}::uuid[])`,
);

/** The cards of these votes, each for its recipient. */
export async function cardsOf(db: Database, voteIds: readonly string[]): Promise<DeliveredCard[]> {
  if (voteIds.length === 0) return [];
  const rows = await cardsByIdStatement<CardRow>(db, { ids: `{${voteIds.join(",")}}` });
  return rows.map(toDelivered);
}

const missedStatement = preparedStatement<{ recipientId: string; after: string; until: string; take: number }>(
  (p) => sql`
    select ${cardColumns} from votes v ${cardJoins}
    where v.recipient_id = ${p.recipientId}::uuid
      and v.delivered_at > ${p.after}::timestamptz and v.delivered_at <= ${p.until}::timestamptz
    order by ${DELIVERY_HOUR} desc, v.id desc
    limit ${p.take}`,
);

/**
 * A recipient's cards delivered in (after, until], in the inbox's order
 * (newest hour first, then the random id): what a resumed stream missed.
 * Never in the order the votes were cast or delivered.
 */
export async function cardsDeliveredBetween(
  db: Database,
  recipientId: string,
  after: Date,
  until: Date,
  take: number,
): Promise<VoteCard[]> {
  const rows = await missedStatement<CardRow>(db, {
    recipientId,
    after: after.toISOString(),
    until: until.toISOString(),
    take,
  });
  return rows.map((row) => toDelivered(row).card);
}

const fromJson = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

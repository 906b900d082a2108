import { LOCKED_CARD_PHOTO, type VoteCard, type VoteCardUnlocked } from "@quad/contracts";
import { mediaUrl } from "../../media/storage";

/** A received vote as read with its page; `revealed` only when the recipient unlocked the voter. */
export interface VoteRow {
  id: string;
  prompt: string;
  /** ISO 8601: when it reached the recipient. */
  deliveredAt: string;
  revealed: RevealedVoter | null;
}

export interface RevealedVoter {
  firstName: string | null;
  graduationYear: number | null;
  instagramHandle: string | null;
  emojis: string[];
  photoKey: string | null;
}

/**
 * The card a recipient sees. A locked card gets only the vote's own id,
 * prompt and hour, and the placeholder every locked card shows: nothing
 * read from the voter, so nothing to match against their photo or to link
 * two of their cards (docs/decisions/0009-locked-cards-carry-nothing-of-the-voter.md).
 * The voter's name, year, handle and photo are read only for voters this
 * recipient unlocked. Every card's time, locked or not, is the hour it was
 * delivered (`createdAt`, the name clients know): an unlocked card's exact
 * time would be what a friend's inbox is matched against.
 */
export function toVoteCard(row: VoteRow): VoteCard {
  const createdAt = hourOf(isoMillis(row.deliveredAt));
  if (row.revealed) return unlockedCard({ id: row.id, prompt: row.prompt, createdAt }, row.revealed);
  // A literal rather than a spread of the shared fields: ten of these a page, on the hot path.
  return { id: row.id, prompt: row.prompt, createdAt, isUnlocked: false, photo: LOCKED_CARD_PHOTO };
}

/** The start of the UTC hour of an ISO 8601 time in UTC ("…T14:27:08.123Z" → "…T14:00:00.000Z"). */
export const hourOf = (iso: string): string => `${iso.slice(0, 13)}:00:00.000Z`;

/**
 * A timestamptz as to_json writes it ("2026-11-23T03:27:08.123456+00:00" in a
 * UTC session) in the API's form ("2026-11-23T03:27:08.123Z"): in UTC with at
 * least milliseconds it is a slice (a page parsed ten Dates, 5 % of the
 * server's time on /votes/for-user); anything else goes through Date, which
 * also truncates to milliseconds.
 */
export function isoMillis(pgTime: string): string {
  if (pgTime.length >= 29 && pgTime[19] === "." && pgTime.endsWith("+00:00")) return `${pgTime.slice(0, 23)}Z`;
  return new Date(pgTime).toISOString();
}

/** `base.createdAt` is the delivery hour already. */
export function unlockedCard(
  base: { id: string; prompt: string; createdAt: string },
  profile: {
    firstName: string | null;
    graduationYear: number | null;
    instagramHandle: string | null;
    emojis: string[];
    photoKey: string | null;
  },
): VoteCardUnlocked {
  return {
    ...base,
    isUnlocked: true,
    photo: profile.photoKey ? mediaUrl(profile.photoKey) : LOCKED_CARD_PHOTO,
    name: profile.firstName ?? "",
    graduationYear: profile.graduationYear,
    instagramHandle: profile.instagramHandle,
    emojis: profile.emojis,
  };
}

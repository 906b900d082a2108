import type { VoteCard, VoteCardUnlocked } from "@quad/contracts";
import { mediaUrl } from "../../media/storage";

/** A received vote as read with its page; `revealed` only when the recipient unlocked the voter. */
export interface VoteRow {
  id: string;
  prompt: string;
  /** ISO 8601. */
  createdAt: string;
  teaserKey: string | null;
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
 * Shown on a locked card whose voter deleted their account (and so has no
 * teaser): a plain blurred shape that says nothing about anyone.
 */
export const ANONYMOUS_TEASER =
  "data:image/svg+xml;base64," +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 3 4"><defs><linearGradient id="g" x2="0" y2="1"><stop offset="0" stop-color="#c7b8f5"/><stop offset="1" stop-color="#f5b8d9"/></linearGradient></defs><rect width="3" height="4" fill="url(#g)"/></svg>',
  ).toString("base64");

/**
 * The card a recipient sees. A locked card gets only the vote id, prompt,
 * time and a server-rendered teaser; the voter's name, year, handle and real
 * photo are read only for voters this recipient unlocked.
 */
export function toVoteCard(row: VoteRow): VoteCard {
  const base = { id: row.id, prompt: row.prompt, createdAt: isoMillis(row.createdAt) };
  if (row.revealed) return unlockedCard(base, row.revealed);
  return { ...base, isUnlocked: false, photo: row.teaserKey ? mediaUrl(row.teaserKey) : ANONYMOUS_TEASER };
}

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

export function unlockedCard(
  base: { id: string; prompt: string; createdAt: string },
  profile: { firstName: string | null; graduationYear: number | null; instagramHandle: string | null; emojis: string[]; photoKey: string | null },
): VoteCardUnlocked {
  return {
    ...base,
    isUnlocked: true,
    photo: profile.photoKey ? mediaUrl(profile.photoKey) : ANONYMOUS_TEASER,
    name: profile.firstName ?? "",
    graduationYear: profile.graduationYear,
    instagramHandle: profile.instagramHandle,
    emojis: profile.emojis,
  };
}

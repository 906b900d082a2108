import type { VoteCard, VoteCardUnlocked } from "@quad/contracts";
import type { Database } from "@quad/db";
import { users } from "@quad/db/schema";
import { inArray } from "drizzle-orm";
import { mediaUrl } from "../../media/storage";

/** A received vote as read from the database, before deciding what the viewer may see. */
export interface VoteRow {
  id: string;
  voterId: string | null;
  prompt: string;
  createdAt: Date;
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
 * Builds the cards a recipient sees. Locked cards get only the vote id,
 * prompt, time and a server-rendered teaser; the voter's id, name, year,
 * handle and real photo are read only for voters this recipient unlocked.
 */
export async function toVoteCards(db: Database, rows: readonly VoteRow[], unlockedVoters: ReadonlySet<string>): Promise<VoteCard[]> {
  const voterIds = [...new Set(rows.map((row) => row.voterId).filter((id): id is string => id !== null))];
  const profiles = new Map(
    voterIds.length === 0
      ? []
      : (
          await db
            .select({
              id: users.id,
              firstName: users.firstName,
              graduationYear: users.graduationYear,
              instagramHandle: users.instagramHandle,
              emojis: users.emojis,
              photoKey: users.photoKey,
              teaserKey: users.teaserKey,
            })
            .from(users)
            .where(inArray(users.id, voterIds))
        ).map((profile) => [profile.id, profile]),
  );
  return rows.map((row): VoteCard => {
    const profile = row.voterId ? profiles.get(row.voterId) : undefined;
    const base = { id: row.id, prompt: row.prompt, createdAt: row.createdAt.toISOString() };
    if (profile && unlockedVoters.has(profile.id)) return unlockedCard(base, profile);
    return { ...base, isUnlocked: false, photo: profile?.teaserKey ? mediaUrl(profile.teaserKey) : ANONYMOUS_TEASER };
  });
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

import { insertTestPrompt } from "@quad/db/testing";
import { votes } from "@quad/db/schema";
import type { TestApp } from "./app";

/**
 * Stores received votes directly, as the voting loop would have, delivered
 * at the moment they were cast, so inbox tests control their number and times. (The loop's own tests cast votes
 * through the API.)
 */
export async function receiveVotes(
  t: TestApp,
  opts: { recipientId: string; voterIds: string[]; at: Date; spacingMs?: number },
) {
  const prompt = await insertTestPrompt(t.deps.db);
  const rows = opts.voterIds.map((voterId, i) => ({
    voterId,
    recipientId: opts.recipientId,
    promptId: prompt.id,
    createdAt: new Date(opts.at.getTime() + i * (opts.spacingMs ?? 1000)),
    deliveredAt: new Date(opts.at.getTime() + i * (opts.spacingMs ?? 1000)),
  }));
  const inserted = await t.deps.db
    .insert(votes)
    .values(rows)
    .returning({ id: votes.id, voterId: votes.voterId, createdAt: votes.createdAt });
  return { prompt, votes: inserted };
}

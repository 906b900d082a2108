import { ERROR_MESSAGES, type VotesPage } from "@quad/contracts";
import type { Database } from "@quad/db";
import { prompts, unlocks, users, votes } from "@quad/db/schema";
import { and, desc, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import { AppError } from "../../errors";
import { toVoteCards } from "./cards";

export async function userIdByPhone(db: Database, phone: string): Promise<string> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone));
  if (!user) throw new AppError("NOT_FOUND", ERROR_MESSAGES.noSuchUser);
  return user.id;
}

interface Cursor {
  createdAt: Date;
  id: string;
}

/** Opaque to clients: the (created_at, id) of the last card shown. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id])).toString("base64url");
}

export function decodeCursor(text: string): Cursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as [string, string];
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || typeof id !== "string" || !/^[0-9a-f-]{36}$/.test(id)) throw new Error("bad");
    return { createdAt, id };
  } catch {
    throw new AppError("BAD_REQUEST", "Invalid cursor", { fieldErrors: { cursor: ["Invalid cursor"] } });
  }
}

/**
 * GET /votes/for-user: received votes, newest first. With a cursor the page
 * is read by keyset on votes_recipient_created_idx, as fast at any depth;
 * `page` (offset) remains for the spec's clients.
 */
export async function votesForUser(
  db: Database,
  phone: string,
  input: { page: number; limit: number; cursor?: string },
): Promise<VotesPage> {
  const me = await userIdByPhone(db, phone);
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const keyset: SQL | undefined = after
    ? or(lt(votes.createdAt, after.createdAt), and(eq(votes.createdAt, after.createdAt), lt(votes.id, after.id)))
    : undefined;
  const rows = await db
    .select({ id: votes.id, voterId: votes.voterId, prompt: prompts.text, createdAt: votes.createdAt })
    .from(votes)
    .innerJoin(prompts, eq(prompts.id, votes.promptId))
    .where(and(eq(votes.recipientId, me), keyset))
    .orderBy(desc(votes.createdAt), desc(votes.id))
    .limit(input.limit + 1)
    .offset(after ? 0 : (input.page - 1) * input.limit);
  const hasMore = rows.length > input.limit;
  const pageRows = rows.slice(0, input.limit);

  const voterIds = [...new Set(pageRows.map((row) => row.voterId).filter((id): id is string => id !== null))];
  const unlocked =
    voterIds.length === 0
      ? []
      : await db
          .select({ voterId: unlocks.voterId })
          .from(unlocks)
          .where(and(eq(unlocks.ownerId, me), inArray(unlocks.voterId, voterIds)));
  const last = pageRows[pageRows.length - 1];
  return {
    votes: await toVoteCards(db, pageRows, new Set(unlocked.map((row) => row.voterId))),
    hasMore,
    nextCursor: hasMore && last ? encodeCursor(last) : null,
  };
}

import { useCallback } from "react";
import { trpc } from "../../lib/trpc";

/**
 * How many votes arrived since the inbox was last opened (on any device).
 * An ordinary query under tRPC's key for inbox.newVotes: whatever learns of a
 * new vote invalidates it, and opening the inbox sets it to 0
 * (lib/refresh-after.ts). A failure shows no count rather than an error.
 */
export function useNewVotes(enabled = true): number {
  const query = trpc.inbox.newVotes.useQuery(undefined, { enabled });
  return query.data?.count ?? 0;
}

/** Tells the server the inbox was opened now: the count starts again from zero. */
export function useMarkInboxOpened(): () => void {
  const mark = trpc.inbox.markOpened.useMutation();
  const { mutate } = mark;
  return useCallback(() => mutate({}), [mutate]);
}

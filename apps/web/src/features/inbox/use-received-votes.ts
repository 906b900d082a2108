import { TOASTS, INBOX_PAGE_SIZE, type VoteCard, type VoteCardUnlocked, type InboxPage } from "@quad/contracts";
import { useInfiniteQuery, type InfiniteData } from "@tanstack/react-query";
import { getQueryKey } from "@trpc/react-query";
import { useCallback, useEffect, useMemo } from "react";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";

type VotesPages = InfiniteData<InboxPage, string | null>;

/** The list's input; the cursor is each page's own parameter. */
export const RECEIVED_VOTES_INPUT = { limit: INBOX_PAGE_SIZE };

/** Only the first page, so the list starts again at page 1 (received votes in docs/product.md "In the app"). */
function firstPageOnly(data: VotesPages | undefined): VotesPages | undefined {
  return data && data.pages.length > 1
    ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) }
    : data;
}

/** The loaded pages with one card replaced by what an unlock revealed (refresh-after.ts). */
export function withUnlockedCard(data: VotesPages | undefined, unlocked: VoteCardUnlocked): VotesPages | undefined {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      votes: page.votes.map((card) => (card.id === unlocked.id ? unlocked : card)),
    })),
  };
}

/**
 * Received votes, newest first, a page of INBOX_PAGE_SIZE at a time, read
 * by the server's keyset cursor. Cached under tRPC's own key for
 * inbox.received, so `utils.inbox.received` reaches it. TanStack's
 * useInfiniteQuery is used directly: tRPC's infinite hook adds a
 * `direction` field that the strict contracts input refuses.
 */
export function useReceivedVotes() {
  const utils = trpc.useUtils();
  const query = useInfiniteQuery({
    queryKey: getQueryKey(trpc.inbox.received, RECEIVED_VOTES_INPUT, "infinite"),
    queryFn: ({ pageParam, signal }) =>
      utils.client.inbox.received.query(
        { ...RECEIVED_VOTES_INPUT, ...(pageParam ? { cursor: pageParam } : {}) },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasMore ? last.nextCursor : null),
    // Opening the list always asks for what is new.
    refetchOnMount: "always",
  });

  const { isError, errorUpdateCount } = query;
  useEffect(() => {
    if (isError) notify.error(TOASTS.loadVotesFailed);
  }, [isError, errorUpdateCount]);

  const votes = useMemo(() => {
    const seen = new Set<string>();
    const cards: VoteCard[] = [];
    for (const page of query.data?.pages ?? []) {
      for (const card of page.votes) {
        if (seen.has(card.id)) continue;
        seen.add(card.id);
        cards.push(card);
      }
    }
    return cards;
  }, [query.data]);

  /** For when the list closes: the next opening starts at page 1. */
  const reset = useCallback(() => utils.inbox.received.setInfiniteData(RECEIVED_VOTES_INPUT, firstPageOnly), [utils]);

  const { refetch } = query;
  /** The Refresh button: page 1 again, asked for anew. */
  const refresh = useCallback(async () => {
    reset();
    await refetch();
  }, [reset, refetch]);

  return { ...query, votes, refresh, reset };
}

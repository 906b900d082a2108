import { TOASTS, INBOX_PAGE_SIZE, type VoteCard, type VoteCardUnlocked, type InboxPage } from "@quad/contracts";
import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo } from "react";
import { notify } from "../../lib/toast";
import { trpc } from "../../lib/trpc";

type VotesPages = InfiniteData<InboxPage, string | null>;

/** Cache key of the received-votes list (one per signed-in student; the cache is cleared on sign-out). */
export const RECEIVED_VOTES_KEY = ["inbox", "received-votes"] as const;

/**
 * Keeps only the first page, so the list starts again at page 1 (received votes in
 * docs/product.md "In the app"): a refresh resets the list.
 */
function keepFirstPage(queryClient: QueryClient): void {
  queryClient.setQueryData<VotesPages>(RECEIVED_VOTES_KEY, (data) =>
    data && data.pages.length > 1 ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } : data,
  );
}

/**
 * Received votes, newest first, a page of INBOX_PAGE_SIZE at a time, read
 * by the server's keyset cursor. TanStack's useInfiniteQuery is used
 * directly: tRPC's own infinite hook adds a `direction` field that the
 * strict contracts input refuses.
 */
export function useReceivedVotes() {
  const { client } = trpc.useUtils();
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    queryKey: RECEIVED_VOTES_KEY,
    queryFn: ({ pageParam, signal }) =>
      client.inbox.received.query({ limit: INBOX_PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) }, { signal }),
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

  const { refetch } = query;
  const refresh = useCallback(async () => {
    keepFirstPage(queryClient);
    await refetch();
  }, [queryClient, refetch]);

  /** For when the list closes: the next opening starts at page 1. */
  const reset = useCallback(() => keepFirstPage(queryClient), [queryClient]);

  return { ...query, votes, refresh, reset };
}

/**
 * After an unlock: the server answered the one card, so put it in place at
 * once, then refetch the loaded pages, where the same voter's other cards
 * come back revealed too.
 */
export function useApplyUnlock(): (card: VoteCardUnlocked) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (unlocked: VoteCardUnlocked) => {
      queryClient.setQueryData<VotesPages>(RECEIVED_VOTES_KEY, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                votes: page.votes.map((card) => (card.id === unlocked.id ? unlocked : card)),
              })),
            }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: RECEIVED_VOTES_KEY });
    },
    [queryClient],
  );
}

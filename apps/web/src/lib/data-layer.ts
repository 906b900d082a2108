import { hashKey, type QueryClient } from "@tanstack/react-query";
import { createTRPCQueryUtils, getQueryKey } from "@trpc/react-query";
import type { MeUser } from "@quad/contracts";
import { REFRESH_AFTER_EVENT, REST_WRITES, refreshAfter, type ClientEvent, type QueryUtils } from "./refresh-after";
import { createRestClient, type RestClient } from "./rest-client";
import { useSessionStore, type SessionStore } from "./session-store";
import { createQueryClient, createTrpcClient, trpc, type TrpcClient } from "./trpc";
import { handleUnauthorized } from "./unauthorized";

/**
 * The app's one query cache and API clients. Created on first use, so the
 * whole data layer (TanStack Query, tRPC) stays out of the first page's
 * bundle and loads with the first screen that talks to the server.
 *
 * Server data lives only in the query cache, under tRPC's keys: the
 * signed-in profile is users.me. Every mutation's outcome goes through
 * refresh-after.ts before its caller sees it.
 */
export interface DataLayer {
  queryClient: QueryClient;
  trpcClient: TrpcClient;
  restClient: RestClient;
  /** tRPC's cache helpers outside React (`utils.users.me.getData()`). */
  utils: QueryUtils;
}

let dataLayer: DataLayer | null = null;

export function getDataLayer(): DataLayer {
  if (dataLayer) return dataLayer;
  const queryClient = createQueryClient();
  // The client reports to the utils made from it: `utils` is read only once a call has ended.
  const trpcClient = createTrpcClient({
    onUnauthorized: handleUnauthorized,
    afterMutation: (path, outcome) => refreshAfter(utils, path, outcome),
  });
  const utils: QueryUtils = createTRPCQueryUtils({ queryClient, client: trpcClient });
  const restClient = createRestClient({
    onUnauthorized: handleUnauthorized,
    afterWrite: async (route, output) => {
      const procedure = REST_WRITES[route];
      if (procedure) await refreshAfter(utils, procedure, { output });
    },
  });
  verifiedFollowsProfile(queryClient, useSessionStore);
  startSessionsClean(queryClient, useSessionStore);
  dataLayer = { queryClient, trpcClient, restClient, utils };
  return dataLayer;
}

/**
 * /home's first calls, asked for together the moment its screen is on its way (its code may still be
 * loading), so they leave as one batched request rather than the round waiting for the profile: the
 * profile, the round and the new-votes count. The last two are a school member's; with no profile
 * cached yet (a reload) they are asked for anyway, and a non-member's are refused, with nothing written.
 */
export async function prefetchHome(): Promise<void> {
  const { utils } = getDataLayer();
  const cached = utils.users.me.getData();
  const member = !cached || cached.schoolEmailVerified;
  await Promise.all([
    utils.users.me.prefetch(),
    ...(member ? [utils.rounds.open.prefetch(), utils.inbox.newVotes.prefetch()] : []),
  ]);
}

/** Drops cached server data (sign-out, tests). */
export function clearServerCache(): void {
  dataLayer?.queryClient.clear();
}

/** Refreshes what `event` made stale (refresh-after.ts); resolves once that is fetched. */
export async function refreshAfterEvent(event: ClientEvent): Promise<void> {
  await REFRESH_AFTER_EVENT[event](getDataLayer().utils);
}

const PROFILE_HASH = hashKey(getQueryKey(trpc.users.me, undefined, "query"));

/**
 * The session's `verified` (what the route guards read, persisted with the
 * tokens) follows the cached profile: whenever users.me is answered or
 * written, by whichever call.
 */
function verifiedFollowsProfile(queryClient: QueryClient, store: SessionStore): void {
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.action.type !== "success" || event.query.queryHash !== PROFILE_HASH) return;
    const me = event.action.data as MeUser | undefined;
    if (me && store.getState().token !== null) store.getState().setVerified(me.isVerified);
  });
}

/**
 * A new session (signing in, here or in another tab) starts without what an
 * earlier one left in the cache: whatever no screen is showing is dropped,
 * the last student's profile included.
 */
function startSessionsClean(queryClient: QueryClient, store: SessionStore): void {
  store.subscribe((state, previous) => {
    if (previous.token === null && state.token !== null) {
      queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
    }
  });
}

import { QueryClient } from "@tanstack/react-query";
import { httpBatchLink, httpSubscriptionLink, splitLink, type TRPCLink } from "@trpc/client";
import { EventSource } from "eventsource";
import { createTRPCReact } from "@trpc/react-query";
import { observable } from "@trpc/server/observable";
import type { AppRouter } from "@quad/server/router";
import { getAccessToken } from "./access-token";
import { httpStatusOf, isUnauthorizedError } from "./api-error";
import { apiUrl, fetchWithTimeout, TRPC_PATH } from "./http";
import { useSessionStore, type SessionStore } from "./session-store";

/** Typed React hooks for the server's router: `trpc.schools.list.useQuery()`. */
export const trpc = createTRPCReact<AppRouter>();

/**
 * Per-call options that keep a 401 from signing the student out, e.g. for
 * `users.me`, whose 401 the caller handles itself (docs/product.md):
 *
 *   trpc.users.me.useQuery(undefined, { ...SKIP_AUTH_REDIRECT })
 *   utils.users.me.fetch(undefined, SKIP_AUTH_REDIRECT)
 *   trpc.x.useMutation({ ...SKIP_AUTH_REDIRECT })
 *   utils.client.x.mutate(input, SKIP_AUTH_REDIRECT.trpc)
 */
export const SKIP_AUTH_REDIRECT = { trpc: { context: { skipAuthRedirect: true } } } as const;

/** How a mutation ended: the server's answer, or the error its caller is about to see. */
/** How a mutation ended, with what it was sent (absent for the REST client's multipart writes). */
export type MutationOutcome = { input?: unknown } & ({ output: unknown } | { error: unknown });

export interface TrpcClientOptions {
  /** Called on a 401 from any call not flagged with `skipAuthRedirect`. */
  onUnauthorized: () => void;
  /**
   * Called with every mutation's outcome before its caller sees it, and
   * waited for (refresh-after.ts: what each mutation makes stale). Must not reject.
   */
  afterMutation?: (path: string, outcome: MutationOutcome) => Promise<void>;
  store?: SessionStore;
}

/**
 * Watches every operation's result and reports a 401 (docs/product.md), then passes
 * the error on unchanged so the caller still sees it.
 */
export function unauthorizedLink(onUnauthorized: () => void): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) =>
        next(op).subscribe({
          next: (value) => observer.next(value),
          error: (error) => {
            if (op.context.skipAuthRedirect !== true && isUnauthorizedError(error)) onUnauthorized();
            observer.error(error);
          },
          complete: () => observer.complete(),
        }),
      );
}

/**
 * Hands each mutation's outcome to `settle` and passes the answer (or the
 * error) on once it is done, so whoever called the mutation, through a hook
 * or the bare client, finds the cache already refreshed.
 */
export function afterMutationLink(
  settle: (path: string, outcome: MutationOutcome) => Promise<void>,
): TRPCLink<AppRouter> {
  return () =>
    ({ op, next }) =>
      observable((observer) => {
        if (op.type !== "mutation") return next(op).subscribe(observer);
        let settled = Promise.resolve();
        return next(op).subscribe({
          next: (value) => {
            const output = "data" in value.result ? value.result.data : undefined;
            settled = settle(op.path, { input: op.input, output }).then(() => observer.next(value));
          },
          error: (error) => void settle(op.path, { input: op.input, error }).then(() => observer.error(error)),
          complete: () => void settled.then(() => observer.complete()),
        });
      });
}

export function createTrpcClient({ onUnauthorized, afterMutation, store = useSessionStore }: TrpcClientOptions) {
  return trpc.createClient({
    links: [
      unauthorizedLink(onUnauthorized),
      ...(afterMutation ? [afterMutationLink(afterMutation)] : []),
      splitLink({
        condition: (op) => op.type === "subscription",
        // Subscriptions (live.events) over server-sent events. The browser's EventSource sends no
        // headers, so this one (the `eventsource` package, on fetch) sends the bearer token like
        // every other call, read afresh on each (re)connect; never in the URL, where logs keep it.
        true: httpSubscriptionLink({
          url: apiUrl(TRPC_PATH),
          EventSource,
          eventSourceOptions: async () => {
            const token = await getAccessToken(store);
            return {
              fetch: (input, init) =>
                fetch(input, {
                  ...init,
                  headers: { ...init.headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
                }),
            };
          },
        }),
        false: httpBatchLink({
          url: apiUrl(TRPC_PATH),
          maxURLLength: 2000,
          headers: async () => {
            const token = await getAccessToken(store);
            return token ? { Authorization: `Bearer ${token}` } : {};
          },
          fetch: fetchWithTimeout,
        }),
      }),
    ],
  });
}

export type TrpcClient = ReturnType<typeof createTrpcClient>;

const MAX_RETRIES = 2;

/** Query defaults: retry only what may succeed on retry (network, 5xx), never a 4xx. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        // Opening a round has side effects on the server; refetch only when asked.
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          const status = httpStatusOf(error);
          if (status !== undefined && status < 500) return false;
          return failureCount < MAX_RETRIES;
        },
      },
      mutations: { retry: false },
    },
  });
}

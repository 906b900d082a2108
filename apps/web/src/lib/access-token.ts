import { createTRPCClient, httpLink } from "@trpc/client";
import type { AppRouter } from "@quad/server/router";
import { apiUrl, fetchWithTimeout, TRPC_PATH } from "./http";
import { useSessionStore, type SessionStore } from "./session-store";

/** Rotate the token pair when the token has less than this left. */
export const TOKEN_REFRESH_LEEWAY_MS = 60_000;

/** A bare client for auth.refresh: no bearer token, no 401 handler, no batching. */
const refreshClient = createTRPCClient<AppRouter>({
  links: [httpLink({ url: apiUrl(TRPC_PATH), fetch: fetchWithTimeout })],
});

const inFlight = new WeakMap<SessionStore, Promise<string | null>>();

/**
 * The bearer token to send now. A token close to expiry is first rotated
 * with the refresh token (one refresh at a time, shared by concurrent
 * callers). If rotation fails the current token is returned as it is: the
 * server then answers 401 and the global handler signs the student out.
 */
export function getAccessToken(
  store: SessionStore = useSessionStore,
  now: number = Date.now(),
): Promise<string | null> {
  const { token, refreshToken, expiresAt } = store.getState();
  if (!token) return Promise.resolve(null);
  if (!refreshToken || !expiresAt) return Promise.resolve(token);
  const expiry = Date.parse(expiresAt);
  if (Number.isNaN(expiry) || expiry - now > TOKEN_REFRESH_LEEWAY_MS) return Promise.resolve(token);

  const pending = inFlight.get(store);
  if (pending) return pending;
  const refresh = rotateTokens(store, refreshToken).finally(() => inFlight.delete(store));
  inFlight.set(store, refresh);
  return refresh;
}

async function rotateTokens(store: SessionStore, refreshToken: string): Promise<string | null> {
  try {
    const tokens = await refreshClient.auth.refresh.mutate({ refreshToken });
    // Signed out (or rotated elsewhere) while this was in flight: don't resurrect the old session.
    if (store.getState().refreshToken !== refreshToken) return store.getState().token;
    store.getState().setTokens(tokens);
    return tokens.token;
  } catch {
    return store.getState().token;
  }
}

import { describe, expect, it } from "vitest";
import { createTokens, server, trpcError, trpcHandler } from "../test/msw";
import { getAccessToken, TOKEN_REFRESH_LEEWAY_MS } from "./access-token";
import { createSessionStore } from "./session-store";

function storeWith(expiresInMs: number) {
  const store = createSessionStore();
  store.getState().setTokens(createTokens({ expiresAt: new Date(Date.now() + expiresInMs).toISOString() }));
  return store;
}

describe("getAccessToken", () => {
  it("is null when signed out", async () => {
    expect(await getAccessToken(createSessionStore())).toBeNull();
  });

  it("returns a fresh token as it is", async () => {
    expect(await getAccessToken(storeWith(10 * 60_000))).toBe("access-token-1");
  });

  it("rotates a token about to expire, once for concurrent callers", async () => {
    const store = storeWith(TOKEN_REFRESH_LEEWAY_MS - 1000);
    const requests: unknown[] = [];
    const rotated = createTokens({ token: "access-token-2", refreshToken: "refresh-token-2" });
    server.use(
      trpcHandler({
        "auth.refresh": ({ input }) => {
          requests.push(input);
          return rotated;
        },
      }),
    );

    const tokens = await Promise.all([getAccessToken(store), getAccessToken(store)]);
    expect(tokens).toEqual(["access-token-2", "access-token-2"]);
    expect(requests).toEqual([{ refreshToken: "refresh-token-1" }]);
    expect(store.getState()).toMatchObject(rotated);
  });

  it("keeps the old token when rotation is refused (the call's 401 then signs out)", async () => {
    const store = storeWith(1000);
    server.use(trpcHandler({ "auth.refresh": () => trpcError("UNAUTHORIZED", "Please log in to continue.") }));
    expect(await getAccessToken(store)).toBe("access-token-1");
    expect(store.getState().refreshToken).toBe("refresh-token-1");
  });
});

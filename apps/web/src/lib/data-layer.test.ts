import { describe, expect, it } from "vitest";
import type { MeUser } from "@quad/contracts";
import { createMeUser, createRound, createTokens, server, trpcError, trpcHandler, type TrpcCall } from "../test/msw";
import { cachedProfile, signInAs } from "../test/render";
import { getDataLayer, prefetchHome } from "./data-layer";
import { useSessionStore } from "./session-store";

describe("the data layer", () => {
  it("refreshes after a mutation before its caller sees the answer, however it was called", async () => {
    signInAs(createMeUser({ paused: false }));
    server.use(trpcHandler({ "account.pause": () => createMeUser({ paused: true }) }));
    const { trpcClient } = getDataLayer();
    // The bare client, as the sign-up's calls use it: no hook, no mutation cache.
    const answer = trpcClient.account.pause.mutate({ paused: true });
    expect(cachedProfile()?.paused).toBe(false);
    await answer;
    expect(cachedProfile()?.paused).toBe(true);
  });

  it("applies what a failure says before the caller sees the error", async () => {
    signInAs(createMeUser({ remainingUnlocks: 2 }));
    server.use(trpcHandler({ "inbox.unlock": () => trpcError("PAYMENT_REQUIRED", "No credits left") }));
    await expect(
      getDataLayer().trpcClient.inbox.unlock.mutate({ userId: "00000000-0000-4000-8000-000000000001" }),
    ).rejects.toThrow("No credits left");
    expect(cachedProfile()?.remainingUnlocks).toBe(0);
  });
});

describe("the session's verified flag", () => {
  it("follows the cached profile, whichever call put it there", () => {
    signInAs(createMeUser({ isVerified: false }));
    expect(useSessionStore.getState().verified).toBe(false);
    getDataLayer().utils.users.me.setData(undefined, createMeUser({ isVerified: true }));
    expect(useSessionStore.getState().verified).toBe(true);
  });

  it("is not set by a profile that arrives after signing out", () => {
    signInAs(createMeUser({ isVerified: false }));
    useSessionStore.getState().clear();
    getDataLayer().utils.users.me.setData(undefined, createMeUser({ isVerified: true }));
    expect(useSessionStore.getState()).toMatchObject({ token: null, verified: false });
  });
});

describe("a new session", () => {
  it("starts without what the last one left in the cache", () => {
    signInAs(createMeUser({ firstName: "Avery" }));
    useSessionStore.getState().clear();
    // Another student signs in (here, or in another tab: the store is rehydrated the same way).
    useSessionStore.getState().startSession(createTokens({ token: "access-token-2" }));
    expect(cachedProfile()).toBeUndefined();
  });

  it("keeps the cache when only the token pair rotates", () => {
    signInAs(createMeUser({ firstName: "Avery" }));
    useSessionStore.getState().setTokens(createTokens({ token: "access-token-2", refreshToken: "refresh-token-2" }));
    expect(cachedProfile()?.firstName).toBe("Avery");
  });
});

describe("/home's first calls", () => {
  /** Answers the home screen's three calls and returns the requests they came in, as their procedures. */
  function answerHome(me: MeUser): Set<string> {
    const requests = new Set<string>();
    const carried = ({ request }: TrpcCall) => requests.add(new URL(request.url).pathname.replace("/api/trpc/", ""));
    server.use(
      trpcHandler({
        "users.me": (call) => (carried(call), me),
        "rounds.open": (call) => (carried(call), createRound()),
        "inbox.newVotes": (call) => (carried(call), { count: 2 }),
      }),
    );
    return requests;
  }

  it("leave together in one request after a reload: the round does not wait for the profile", async () => {
    useSessionStore.getState().clear();
    useSessionStore.getState().startSession(createTokens());
    const requests = answerHome(createMeUser());
    await prefetchHome();
    expect([...requests]).toEqual(["users.me,rounds.open,inbox.newVotes"]);
    expect(getDataLayer().utils.inbox.newVotes.getData()).toEqual({ count: 2 });
  });

  it("ask a student known not to be a member for nothing but what is stale", async () => {
    signInAs(createMeUser({ schoolEmailVerified: false }));
    const requests = answerHome(createMeUser({ schoolEmailVerified: false }));
    await prefetchHome();
    expect([...requests]).toEqual([]);
  });
});

import { act, renderHook } from "@testing-library/react";
import { SESSION_RESTORE_TIMEOUT_MS, SESSION_STORAGE_KEY } from "@quad/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { StateStorage } from "zustand/middleware";
import { createMeUser, createTokens } from "../test/msw/fixtures";
import { createSessionStore, selectHasSession, selectIsVerified, useSessionReady } from "./session-store";

function persisted(): unknown {
  const raw = window.localStorage.getItem(SESSION_STORAGE_KEY);
  return raw === null ? null : (JSON.parse(raw) as { state: unknown }).state;
}

function seedStorage(state: unknown, version = 1): void {
  window.localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ state, version }));
}

/** A storage whose reads resolve only when the test says so. */
function deferredStorage() {
  let resolveRead: (value: string | null) => void = () => undefined;
  const storage: StateStorage = {
    getItem: () =>
      new Promise<string | null>((resolve) => {
        resolveRead = resolve;
      }),
    setItem: () => undefined,
    removeItem: () => undefined,
  };
  return { storage, resolveRead: (value: string | null) => resolveRead(value) };
}

describe("session store actions", () => {
  it("starts signed out", () => {
    const store = createSessionStore();
    expect(store.getState()).toMatchObject({ token: null, refreshToken: null, expiresAt: null, verified: false });
    expect(selectHasSession(store.getState())).toBe(false);
  });

  it("startSession stores the pair of a new session, its profile not yet read", () => {
    const store = createSessionStore();
    store.getState().startSession(createTokens({ token: "old" }));
    store.getState().setVerified(true);
    const tokens = createTokens();
    store.getState().startSession(tokens);
    expect(store.getState()).toMatchObject({ ...tokens, verified: false });
  });

  it("setTokens stores a rotated pair and keeps the session's verdict", () => {
    const store = createSessionStore();
    store.getState().startSession(createTokens());
    store.getState().setVerified(true);
    const rotated = createTokens({ token: "access-token-2", refreshToken: "refresh-token-2" });
    store.getState().setTokens(rotated);
    expect(store.getState()).toMatchObject({ ...rotated, verified: true });
  });

  it("clear forgets every token and the verdict", () => {
    const store = createSessionStore();
    store.getState().startSession(createTokens());
    store.getState().setVerified(true);
    store.getState().clear();
    expect(store.getState()).toMatchObject({ token: null, refreshToken: null, expiresAt: null, verified: false });
  });

  it("tells verified students apart", () => {
    const store = createSessionStore();
    store.getState().setToken("abc");
    expect(selectIsVerified(store.getState())).toBe(false);
    store.getState().setVerified(true);
    expect(selectIsVerified(store.getState())).toBe(true);
    store.getState().clear();
    expect(selectIsVerified(store.getState())).toBe(false);
  });
});

describe("session persistence", () => {
  it('persists the session, without the profile, in localStorage under "user"', () => {
    const store = createSessionStore();
    const tokens = createTokens();
    store.getState().startSession(tokens);
    store.getState().setVerified(true);
    expect(SESSION_STORAGE_KEY).toBe("user");
    expect(persisted()).toEqual({ ...tokens, verified: true });

    store.getState().clear();
    expect(persisted()).toEqual({ token: null, refreshToken: null, expiresAt: null, verified: false });
  });

  it("restores a stored session when created", () => {
    const tokens = createTokens();
    seedStorage({ ...tokens, verified: true });
    const store = createSessionStore();
    expect(store.persist.hasHydrated()).toBe(true);
    expect(store.getState()).toMatchObject({ ...tokens, verified: true });
  });

  it("restores the app store on page load", async () => {
    seedStorage({ ...createTokens(), verified: true });
    vi.resetModules();
    const { useSessionStore } = await import("./session-store");
    expect(useSessionStore.getState().verified).toBe(true);
    expect(useSessionStore.getState().token).toBe("access-token-1");
  });

  it.each([true, false])(
    "keeps a session stored with its whole profile (version 0), verified: %s, and stores it without",
    (isVerified) => {
      const tokens = createTokens();
      seedStorage({ ...tokens, user: createMeUser({ isVerified }) }, 0);
      const store = createSessionStore();
      expect(store.getState()).toMatchObject({ ...tokens, verified: isVerified });
      expect(persisted()).toEqual({ ...tokens, verified: isVerified });
    },
  );

  it.each([
    ["not JSON", "{oops"],
    ["no token", JSON.stringify({ state: { verified: true, token: null }, version: 1 })],
    ["an empty token", JSON.stringify({ state: { ...createTokens(), token: "" }, version: 1 })],
    ["version 0 without a token", JSON.stringify({ state: { user: createMeUser(), token: null }, version: 0 })],
    ["an older version", JSON.stringify({ state: { ...createTokens(), user: createMeUser() }, version: -1 })],
  ])("starts signed out when storage holds %s", (_label, raw) => {
    window.localStorage.setItem(SESSION_STORAGE_KEY, raw);
    const store = createSessionStore();
    expect(store.persist.hasHydrated()).toBe(true);
    expect(store.getState()).toMatchObject({ token: null, verified: false });
  });

  it("waits for a slow storage that answers in time", async () => {
    vi.useFakeTimers();
    try {
      const { storage, resolveRead } = deferredStorage();
      const store = createSessionStore({ storage });
      const { result } = renderHook(() => useSessionReady(store));
      expect(result.current).toBe(false);

      await act(async () => {
        await vi.advanceTimersByTimeAsync(SESSION_RESTORE_TIMEOUT_MS - 1);
        resolveRead(JSON.stringify({ state: { token: "late-but-in-time", verified: false }, version: 1 }));
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(result.current).toBe(true);
      expect(store.getState().token).toBe("late-but-in-time");
    } finally {
      vi.useRealTimers();
    }
  });

  it(`gives up restoring after ${SESSION_RESTORE_TIMEOUT_MS} ms and proceeds signed out`, async () => {
    vi.useFakeTimers();
    try {
      const { storage, resolveRead } = deferredStorage();
      const store = createSessionStore({ storage });
      const { result } = renderHook(() => useSessionReady(store));

      await act(() => vi.advanceTimersByTimeAsync(SESSION_RESTORE_TIMEOUT_MS - 1));
      expect(result.current).toBe(false);

      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(result.current).toBe(true);
      expect(store.getState()).toMatchObject({ token: null });

      // An answer arriving after the deadline is ignored.
      await act(async () => {
        resolveRead(JSON.stringify({ state: { token: "too-late", verified: true }, version: 1 }));
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(store.getState().token).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("what restoring found", () => {
  afterEach(() => window.localStorage.clear());

  it.each([
    ["an entry that is not JSON", "{not json"],
    ["JSON that is no session entry", JSON.stringify("garbage")],
    ["an entry without a token", JSON.stringify({ state: { verified: true }, version: 1 })],
    ["an empty token", JSON.stringify({ state: { token: "" }, version: 1 })],
    ["an unknown version", JSON.stringify({ state: { token: "t" }, version: 7 })],
  ])("%s is a spoiled session: signed out, and marked so", (_name, raw) => {
    window.localStorage.setItem(SESSION_STORAGE_KEY, raw);
    const store = createSessionStore();
    expect(store.getState()).toMatchObject({ token: null, restoredSpoiled: true, restoredUnchecked: false });
  });

  it("nothing stored, or the entry Logout leaves, is not spoiled", () => {
    expect(createSessionStore().getState().restoredSpoiled).toBe(false);
    seedStorage({ token: null, refreshToken: null, expiresAt: null, verified: false });
    expect(createSessionStore().getState()).toMatchObject({ restoredSpoiled: false, restoredUnchecked: false });
  });

  it("a stored token is unchecked until it is renewed or replaced", () => {
    seedStorage({ ...createTokens(), verified: true });
    const store = createSessionStore();
    expect(store.getState()).toMatchObject({ restoredSpoiled: false, restoredUnchecked: true });
    store.getState().setTokens(createTokens({ token: "access-token-2" }));
    expect(store.getState().restoredUnchecked).toBe(false);
  });
});

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

function seedStorage(state: unknown): void {
  window.localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ state, version: 0 }));
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
    expect(store.getState()).toMatchObject({ user: null, token: null, refreshToken: null, expiresAt: null });
    expect(selectHasSession(store.getState())).toBe(false);
  });

  it("setUser and setToken set one field each", () => {
    const store = createSessionStore();
    const user = createMeUser();
    store.getState().setUser(user);
    expect(store.getState().user).toEqual(user);
    expect(store.getState().token).toBeNull();
    store.getState().setToken("abc");
    expect(store.getState().token).toBe("abc");
    expect(store.getState().user).toEqual(user);
  });

  it("setTokens stores the whole pair", () => {
    const store = createSessionStore();
    const tokens = createTokens();
    store.getState().setTokens(tokens);
    expect(store.getState()).toMatchObject(tokens);
  });

  it("clear forgets the user and every token", () => {
    const store = createSessionStore();
    store.getState().setTokens(createTokens());
    store.getState().setUser(createMeUser());
    store.getState().clear();
    expect(store.getState()).toMatchObject({ user: null, token: null, refreshToken: null, expiresAt: null });
  });

  it("clearUser forgets only the user", () => {
    const store = createSessionStore();
    const tokens = createTokens();
    store.getState().setTokens(tokens);
    store.getState().setUser(createMeUser());
    store.getState().clearUser();
    expect(store.getState().user).toBeNull();
    expect(store.getState()).toMatchObject(tokens);
  });

  it("setRemainingUnlocks updates the current user", () => {
    const store = createSessionStore();
    store.getState().setUser(createMeUser({ remainingUnlocks: 2 }));
    store.getState().setRemainingUnlocks(5);
    expect(store.getState().user?.remainingUnlocks).toBe(5);
    expect(store.getState().user?.firstName).toBe("Avery");
  });

  it("setRemainingUnlocks does nothing without a user", () => {
    const store = createSessionStore();
    store.getState().setToken("abc");
    store.getState().setRemainingUnlocks(5);
    expect(store.getState().user).toBeNull();
  });

  it("tells verified students apart", () => {
    const store = createSessionStore();
    store.getState().setToken("abc");
    expect(selectIsVerified(store.getState())).toBe(false);
    store.getState().setUser(createMeUser({ isVerified: false }));
    expect(selectIsVerified(store.getState())).toBe(false);
    store.getState().setUser(createMeUser({ isVerified: true }));
    expect(selectIsVerified(store.getState())).toBe(true);
  });
});

describe("session persistence", () => {
  it('persists the session in localStorage under "user"', () => {
    const store = createSessionStore();
    const tokens = createTokens();
    const user = createMeUser();
    store.getState().setTokens(tokens);
    store.getState().setUser(user);
    expect(SESSION_STORAGE_KEY).toBe("user");
    expect(persisted()).toEqual({ ...tokens, user });

    store.getState().clear();
    expect(persisted()).toEqual({ user: null, token: null, refreshToken: null, expiresAt: null });
  });

  it("restores a stored session when created", () => {
    const tokens = createTokens();
    const user = createMeUser();
    seedStorage({ ...tokens, user });
    const store = createSessionStore();
    expect(store.persist.hasHydrated()).toBe(true);
    expect(store.getState()).toMatchObject({ ...tokens, user });
  });

  it("restores the app store on page load", async () => {
    const user = createMeUser();
    seedStorage({ ...createTokens(), user });
    vi.resetModules();
    const { useSessionStore } = await import("./session-store");
    expect(useSessionStore.getState().user).toEqual(user);
    expect(useSessionStore.getState().token).toBe("access-token-1");
  });

  it.each([
    ["not JSON", "{oops"],
    ["no token", JSON.stringify({ state: { user: createMeUser(), token: null }, version: 0 })],
    ["a malformed user", JSON.stringify({ state: { user: { firstName: 3 }, token: "abc" }, version: 0 })],
    ["an older version", JSON.stringify({ state: { ...createTokens(), user: createMeUser() }, version: -1 })],
  ])("starts signed out when storage holds %s", (_label, raw) => {
    window.localStorage.setItem(SESSION_STORAGE_KEY, raw);
    const store = createSessionStore();
    expect(store.persist.hasHydrated()).toBe(true);
    expect(store.getState()).toMatchObject({ user: null, token: null });
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
        resolveRead(JSON.stringify({ state: { token: "late-but-in-time", user: null }, version: 0 }));
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
      expect(store.getState()).toMatchObject({ user: null, token: null });

      // An answer arriving after the deadline is ignored.
      await act(async () => {
        resolveRead(JSON.stringify({ state: { token: "too-late", user: createMeUser() }, version: 0 }));
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

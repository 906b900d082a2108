import { useSyncExternalStore } from "react";
import { create } from "zustand";
import { persist, type PersistStorage, type StateStorage, type StorageValue } from "zustand/middleware";
import { SESSION_RESTORE_TIMEOUT_MS, SESSION_STORAGE_KEY, type AuthTokens, type MeUser } from "@quad/contracts";

/**
 * The client session of docs/product.md: the signed-in student and their bearer
 * token, plus the refresh token and the token's expiry so the API layer can
 * rotate the pair before it lapses. Persisted in localStorage under "user".
 */
export interface SessionData {
  user: MeUser | null;
  token: string | null;
  refreshToken: string | null;
  /** ISO time at which `token` expires (AuthTokens.expiresAt). */
  expiresAt: string | null;
}

export interface SessionActions {
  setUser: (user: MeUser) => void;
  setToken: (token: string) => void;
  /** Stores a whole token pair as the auth endpoints return it. */
  setTokens: (tokens: AuthTokens) => void;
  /** Signs out: forgets the user and every token. */
  clear: () => void;
  /** Forgets only the user (e.g. before reloading the profile). */
  clearUser: () => void;
  /** Writes remainingUnlocks on the current user; does nothing without one. */
  setRemainingUnlocks: (remainingUnlocks: number) => void;
}

export type SessionState = SessionData & SessionActions;

export const SIGNED_OUT: SessionData = { user: null, token: null, refreshToken: null, expiresAt: null };

export interface SessionStoreOptions {
  /** Where the session lives; localStorage by default. May be asynchronous. */
  storage?: StateStorage;
  /** Give up restoring after this long and start signed out. */
  restoreTimeoutMs?: number;
}

export function createSessionStore(options: SessionStoreOptions = {}) {
  const storage = sessionStorageAdapter(
    options.storage ?? browserLocalStorage(),
    options.restoreTimeoutMs ?? SESSION_RESTORE_TIMEOUT_MS,
  );

  return create<SessionState>()(
    persist(
      (set, get) => ({
        ...SIGNED_OUT,
        setUser: (user) => set({ user }),
        setToken: (token) => set({ token }),
        setTokens: ({ token, refreshToken, expiresAt }) => set({ token, refreshToken, expiresAt }),
        clear: () => set(SIGNED_OUT),
        clearUser: () => set({ user: null }),
        setRemainingUnlocks: (remainingUnlocks) => {
          const { user } = get();
          if (user) set({ user: { ...user, remainingUnlocks } });
        },
      }),
      {
        name: SESSION_STORAGE_KEY,
        storage,
        version: 0,
        partialize: ({ user, token, refreshToken, expiresAt }): SessionData => ({
          user,
          token,
          refreshToken,
          expiresAt,
        }),
        // Whatever storage holds is untrusted: a malformed entry means signed out.
        merge: (persisted, current) => ({ ...current, ...parsePersistedSession(persisted) }),
        // An entry from an older shape is dropped rather than guessed at.
        migrate: () => SIGNED_OUT,
      },
    ),
  );
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/** The app's one session store. */
export const useSessionStore = createSessionStore();

/**
 * True once the persisted session has been restored (or restoring gave up
 * after SESSION_RESTORE_TIMEOUT_MS). Screens show the loading screen until then.
 */
export function useSessionReady(store: SessionStore = useSessionStore): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const offStart = store.persist.onHydrate(onChange);
      const offFinish = store.persist.onFinishHydration(onChange);
      return () => {
        offStart();
        offFinish();
      };
    },
    () => store.persist.hasHydrated(),
  );
}

/** Signed in with a token. */
export function selectHasSession(state: SessionData): boolean {
  return state.token !== null;
}

/** Signed in and the server has marked the profile complete. */
export function selectIsVerified(state: SessionData): boolean {
  return state.token !== null && state.user?.isVerified === true;
}

/**
 * Keeps tabs in step: signing in or out in one tab re-reads the session in
 * the others. Returns the unsubscribe function.
 */
export function syncSessionAcrossTabs(store: SessionStore = useSessionStore): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_STORAGE_KEY || event.key === null) void store.persist.rehydrate();
  };
  window.addEventListener("storage", onStorage);
  return () => window.removeEventListener("storage", onStorage);
}

/**
 * Only our own code writes this entry, and `version` drops older shapes, so a
 * structural check is enough (and keeps zod out of the first page's bundle).
 */
function parsePersistedSession(value: unknown): SessionData {
  if (!isRecord(value)) return SIGNED_OUT;
  const token = typeof value.token === "string" && value.token !== "" ? value.token : null;
  if (token === null) return SIGNED_OUT;
  const user = value.user ?? null;
  if (user !== null && !looksLikeMeUser(user)) return SIGNED_OUT;
  return {
    user,
    token,
    refreshToken: typeof value.refreshToken === "string" ? value.refreshToken : null,
    expiresAt: typeof value.expiresAt === "string" ? value.expiresAt : null,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function looksLikeMeUser(value: unknown): value is MeUser {
  return (
    isRecord(value) &&
    typeof value.id === "string" &&
    typeof value.isVerified === "boolean" &&
    typeof value.remainingUnlocks === "number" &&
    Array.isArray(value.organizations) &&
    Array.isArray(value.interests)
  );
}

function browserLocalStorage(): StateStorage {
  try {
    return window.localStorage;
  } catch {
    // Storage can be disabled (privacy modes); the session then lives in memory only.
    return memoryStorage();
  }
}

function memoryStorage(): StateStorage {
  const items = new Map<string, string>();
  return {
    getItem: (name) => items.get(name) ?? null,
    setItem: (name, value) => void items.set(name, value),
    removeItem: (name) => void items.delete(name),
  };
}

/**
 * JSON over a string storage, with the restore rules: a read that fails, is
 * not JSON, or takes longer than `timeoutMs` counts as "nothing stored", so
 * restoring always finishes and the app never hangs on the loading screen.
 * Synchronous storages (localStorage) restore synchronously.
 */
function sessionStorageAdapter(storage: StateStorage, timeoutMs: number): PersistStorage<SessionData> {
  const decode = (raw: string | null): StorageValue<SessionData> | null => {
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as StorageValue<SessionData>;
    } catch {
      return null;
    }
  };

  return {
    getItem: (name) => {
      let raw: ReturnType<StateStorage["getItem"]>;
      try {
        raw = storage.getItem(name);
      } catch {
        return null;
      }
      if (raw === null || typeof raw === "string") return decode(raw);
      const pending = raw;

      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), timeoutMs);
        pending.then(
          (value) => {
            clearTimeout(timer);
            resolve(decode(value));
          },
          () => {
            clearTimeout(timer);
            resolve(null);
          },
        );
      });
    },
    setItem: (name, value) => {
      try {
        return storage.setItem(name, JSON.stringify(value));
      } catch {
        // Quota or privacy-mode failures must not break signing in.
      }
    },
    removeItem: (name) => {
      try {
        return storage.removeItem(name);
      } catch {
        // Same as above.
      }
    },
  };
}

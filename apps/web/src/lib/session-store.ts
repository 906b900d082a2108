import { useSyncExternalStore } from "react";
import { create } from "zustand";
import { persist, type PersistStorage, type StateStorage, type StorageValue } from "zustand/middleware";
import { SESSION_RESTORE_TIMEOUT_MS, SESSION_STORAGE_KEY, type AuthTokens } from "@quad/contracts";

/**
 * The client session of docs/product.md: the bearer token, the refresh token
 * and the token's expiry (so the API layer can rotate the pair before it
 * lapses), and whether the signed-in profile is verified, which the route
 * guards decide on before any data has loaded. The profile itself lives only
 * in the query cache (users.me); `verified` follows it there (data-layer.ts).
 * Persisted in localStorage under "user".
 */
export interface SessionData {
  token: string | null;
  refreshToken: string | null;
  /** ISO time at which `token` expires (AuthTokens.expiresAt). */
  expiresAt: string | null;
  /** The server verified the profile (MeUser.isVerified), as last read. */
  verified: boolean;
}

export interface SessionActions {
  /** Signing in: a new session with this token pair, its profile not read yet. */
  startSession: (tokens: AuthTokens) => void;
  setToken: (token: string) => void;
  /** Stores a rotated token pair; the session stays the same. */
  setTokens: (tokens: AuthTokens) => void;
  setVerified: (verified: boolean) => void;
  /** Signs out: forgets every token. */
  clear: () => void;
}

/** What restoring found, kept in memory only: for telling a student why they are signed out. */
export interface RestoredSession {
  /**
   * Something was stored but could not be read as a session (not JSON, wrong shape, unknown version),
   * or its token was refused before it was ever renewed.
   */
  restoredSpoiled: boolean;
  /** The token came from storage and has not been replaced since: a 401 on it means it was never good here. */
  restoredUnchecked: boolean;
}

export type SessionState = SessionData & SessionActions & RestoredSession;

export const SIGNED_OUT: SessionData = { token: null, refreshToken: null, expiresAt: null, verified: false };

/** The persisted shape's version: 0 also held the whole profile (`user`). */
const SESSION_VERSION = 1;

/** Stands for a stored entry that is no session at all: no `token` field, not even null. */
const UNREADABLE = {} as SessionData;

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
        restoredSpoiled: false,
        restoredUnchecked: false,
        startSession: ({ token, refreshToken, expiresAt }) =>
          set({ token, refreshToken, expiresAt, verified: false, restoredSpoiled: false, restoredUnchecked: false }),
        setToken: (token) => set({ token, restoredSpoiled: false, restoredUnchecked: false }),
        setTokens: ({ token, refreshToken, expiresAt }) =>
          set({ token, refreshToken, expiresAt, restoredUnchecked: false }),
        setVerified: (verified) => {
          if (get().verified !== verified) set({ verified });
        },
        clear: () => set({ ...SIGNED_OUT, restoredUnchecked: false }),
      }),
      {
        name: SESSION_STORAGE_KEY,
        storage,
        version: SESSION_VERSION,
        partialize: ({ token, refreshToken, expiresAt, verified }): SessionData => ({
          token,
          refreshToken,
          expiresAt,
          verified,
        }),
        // Whatever storage holds is untrusted: a malformed entry means signed out, and says so.
        merge: (persisted, current) => {
          const session = parsePersistedSession(persisted);
          return {
            ...current,
            ...session,
            restoredSpoiled: isSpoiled(persisted),
            restoredUnchecked: session.token !== null,
          };
        },
        // Sessions stored with the profile keep their tokens and the profile's verdict; other versions are unreadable.
        migrate: (persisted, version) => (version === 0 ? fromVersion0(persisted) : UNREADABLE),
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
  return state.token !== null && state.verified;
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
  return {
    token,
    refreshToken: typeof value.refreshToken === "string" ? value.refreshToken : null,
    expiresAt: typeof value.expiresAt === "string" ? value.expiresAt : null,
    verified: value.verified === true,
  };
}

/**
 * Stored, yet no session and not the signed-out entry Logout leaves behind
 * (`token: null`). Nothing stored (undefined) is not spoiled.
 */
function isSpoiled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (!isRecord(value)) return true;
  if (value.token === null) return false;
  return parsePersistedSession(value).token === null;
}

/** Version 0 kept the whole profile beside the tokens; only its isVerified is still wanted. */
function fromVersion0(value: unknown): SessionData {
  if (!isRecord(value)) return SIGNED_OUT;
  const user = value.user;
  return parsePersistedSession({ ...value, verified: isRecord(user) && user.isVerified === true });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
    const unreadable = { state: UNREADABLE, version: SESSION_VERSION };
    try {
      const value: unknown = JSON.parse(raw);
      return isRecord(value) && isRecord(value.state) ? (value as unknown as StorageValue<SessionData>) : unreadable;
    } catch {
      return unreadable;
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

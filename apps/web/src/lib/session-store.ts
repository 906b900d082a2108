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

export type SessionState = SessionData & SessionActions;

export const SIGNED_OUT: SessionData = { token: null, refreshToken: null, expiresAt: null, verified: false };

/** The persisted shape's version: 0 also held the whole profile (`user`). */
const SESSION_VERSION = 1;

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
        startSession: ({ token, refreshToken, expiresAt }) => set({ token, refreshToken, expiresAt, verified: false }),
        setToken: (token) => set({ token }),
        setTokens: ({ token, refreshToken, expiresAt }) => set({ token, refreshToken, expiresAt }),
        setVerified: (verified) => {
          if (get().verified !== verified) set({ verified });
        },
        clear: () => set(SIGNED_OUT),
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
        // Whatever storage holds is untrusted: a malformed entry means signed out.
        merge: (persisted, current) => ({ ...current, ...parsePersistedSession(persisted) }),
        // Sessions stored with the profile keep their tokens and the profile's verdict; anything older is dropped.
        migrate: (persisted, version) => (version === 0 ? fromVersion0(persisted) : SIGNED_OUT),
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

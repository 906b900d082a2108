import type { Database } from "@quad/db";
import { sessionRevocations } from "@quad/db/schema";
import { gt, sql } from "drizzle-orm";
import { listenForNotices, type PostgresListener } from "../../notices/postgres-listener";
import { ACCESS_TOKEN_TTL_MS } from "./tokens";

/**
 * Signing out is immediate in every server process (decision 0011). An
 * access token names its session family; a family signed out by logout,
 * refresh-token reuse, account deletion or a moderator's removal is written
 * to `session_revocations` and announced by NOTIFY in the same transaction.
 * Every process keeps the recent ones in memory, so refusing a token is one
 * Map lookup per request.
 */
export const REVOCATION_CHANNEL = "quad_session_revoked";

/**
 * How long a revocation matters: the last access token it can concern
 * expires at most ACCESS_TOKEN_TTL_MS after it, plus a minute for clocks of
 * different processes. Older rows are purged.
 */
export const REVOCATION_RETENTION_MS = ACCESS_TOKEN_TTL_MS + 60_000;

/** NOTIFY payloads stop at 8000 bytes; a family id takes 37. */
const FAMILIES_PER_NOTICE = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SWEEP_EVERY_MS = 60_000;

export interface SessionRevocations {
  /** The hot path: whether the token's family was signed out. */
  isRevoked(familyId: string): boolean;
  /** Families whose revocation this process just committed: refused here at once (the NOTIFY sent with the commit tells the others). */
  heard(familyIds: readonly string[]): void;
  /** Reads every revocation recent enough to matter: at start, and after notices may have been missed. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

/** Writes the revocations and their notices inside the caller's transaction: both commit, or neither. */
export async function recordRevocations(tx: Database, familyIds: readonly string[], at: Date): Promise<void> {
  if (familyIds.length === 0) return;
  await tx
    .insert(sessionRevocations)
    .values(familyIds.map((familyId) => ({ familyId, revokedAt: at })))
    .onConflictDoNothing();
  for (let i = 0; i < familyIds.length; i += FAMILIES_PER_NOTICE) {
    await tx.execute(
      sql`select pg_notify(${REVOCATION_CHANNEL}, ${familyIds.slice(i, i + FAMILIES_PER_NOTICE).join(" ")})`,
    );
  }
}

/**
 * The process's set of revoked families. With `listenUrl` (Postgres) it
 * LISTENs for other processes' revocations and reloads after a reconnect;
 * without it (PGlite: one process owns the data) what this process commits
 * is all there is.
 */
export async function createSessionRevocations(opts: {
  db: Database;
  now: () => Date;
  listenUrl?: string;
  onError?: (error: unknown) => void;
}): Promise<SessionRevocations> {
  const families = new Map<string, number>();
  let lastSweep = opts.now().getTime();

  const add = (familyId: string, atMs: number) => {
    if (!families.has(familyId)) families.set(familyId, atMs);
  };
  const sweep = () => {
    const nowMs = opts.now().getTime();
    if (nowMs - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = nowMs;
    for (const [familyId, atMs] of families) if (atMs < nowMs - REVOCATION_RETENTION_MS) families.delete(familyId);
  };
  const heard = (familyIds: readonly string[]) => {
    const atMs = opts.now().getTime();
    for (const familyId of familyIds) if (UUID.test(familyId)) add(familyId, atMs);
    sweep();
  };
  const reload = async () => {
    const since = new Date(opts.now().getTime() - REVOCATION_RETENTION_MS);
    const rows = await opts.db.select().from(sessionRevocations).where(gt(sessionRevocations.revokedAt, since));
    for (const row of rows) add(row.familyId, row.revokedAt.getTime());
    sweep();
  };

  // Listen first, then load: a revocation committed in between is heard, loaded, or both.
  let listener: PostgresListener | undefined;
  if (opts.listenUrl) {
    listener = await listenForNotices(opts.listenUrl, REVOCATION_CHANNEL, {
      onNotice: (payload) => heard(payload.split(" ")),
      onReconnect: () => void reload().catch((error: unknown) => opts.onError?.(error)),
    });
  }
  await reload();

  return {
    isRevoked: (familyId) => families.has(familyId),
    heard,
    reload,
    async close() {
      await listener?.close();
    },
  };
}

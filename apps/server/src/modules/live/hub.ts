import type { LiveEvent } from "@quad/contracts";
import type { Database } from "@quad/db";
import { AppError } from "../../errors";
import type { SessionRevocations } from "../auth/revocations";
import { cardOf, cardsSince, positionAt } from "../inbox/live-cards";
import type { LiveBus, LiveNotice } from "./bus";
import type { EventIds } from "./event-ids";

/** One event of a stream; `id` on the events a resume can start after. */
export interface LiveItem {
  id?: string;
  event: LiveEvent;
}

export interface LiveLimits {
  /** Open streams per student on one process (tabs and devices): past it, a 429. */
  perStudent: number;
  /** Open streams on one process: past it, a 503 (another replica may take it). */
  perProcess: number;
  /** A stream with no event for this long ends; the client opens a new one. */
  idleMs: number;
  /** How often streams are checked for a revoked session, an expired token or idleness. */
  sweepMs: number;
  /** A REST stream's comment line this often (tRPC's ping has the same interval, set in trpc/init.ts). */
  heartbeatMs: number;
}

/** A comment line on every open stream this often, so proxies (nginx reads for 60 s) and clients see it alive. */
export const LIVE_HEARTBEAT_MS = 15_000;
/** A client that heard nothing, heartbeat included, for this long reconnects. */
export const LIVE_CLIENT_RECONNECT_MS = 40_000;

export const LIVE_LIMITS: LiveLimits = {
  perStudent: 5,
  perProcess: 20_000,
  idleMs: 10 * 60_000,
  sweepMs: 250,
  heartbeatMs: LIVE_HEARTBEAT_MS,
};
/** Votes resent to a resumed stream, at most; a client further behind refreshes on `ready` anyway. */
const REPLAY_MAX = 100;
/**
 * A resume starts this far before the position it was given: a vote's time is
 * taken before its commit, so a vote committed just after the position was
 * sent can carry an earlier time. Cards inside the window may come twice.
 */
const RESUME_LOOKBACK_MS = 10_000;

export interface LiveStreamOwner {
  userId: string;
  familyId?: string;
  expiresAtMs?: number;
}

export interface LiveHub {
  /** Registers a stream (or refuses it: the caps), then yields its events until it ends or `signal` aborts. */
  open(owner: LiveStreamOwner, lastEventId: string | null | undefined, signal?: AbortSignal): AsyncIterable<LiveItem>;
  /** Announce to every process (this one included). */
  publish(notice: LiveNotice): void;
  /** Streams open on this process. */
  size(): number;
  readonly limits: Readonly<LiveLimits>;
  /** Ends every stream: their clients resume from their last event. */
  endAll(): void;
  close(): Promise<void>;
}

interface Stream {
  owner: LiveStreamOwner;
  queue: LiveItem[];
  lastEventMs: number;
  ended: boolean;
  wake?: () => void;
}

export function createLiveHub(opts: {
  db: Database;
  bus: LiveBus;
  eventIds: EventIds;
  revocations: Pick<SessionRevocations, "isRevoked">;
  now: () => number;
  limits?: Partial<LiveLimits>;
  onError?: (error: unknown) => void;
}): LiveHub {
  const limits = { ...LIVE_LIMITS, ...opts.limits };
  const byUser = new Map<string, Set<Stream>>();
  let total = 0;

  const end = (stream: Stream) => {
    if (stream.ended) return;
    stream.ended = true;
    stream.wake?.();
  };
  const remove = (stream: Stream) => {
    const set = byUser.get(stream.owner.userId);
    if (!set?.delete(stream)) return;
    total -= 1;
    if (set.size === 0) byUser.delete(stream.owner.userId);
  };
  const push = (stream: Stream, item: LiveItem) => {
    stream.queue.push(item);
    stream.lastEventMs = opts.now();
    stream.wake?.();
  };

  async function deliver(notice: LiveNotice) {
    if (notice.kind === "state") {
      for (const stream of byUser.get(notice.userId) ?? []) push(stream, { event: { type: "state" } });
      return;
    }
    if (!byUser.has(notice.recipientId)) return;
    // One read per vote on the process that holds the recipient's streams, whatever their number.
    const found = await cardOf(opts.db, notice.recipientId, notice.voteId);
    if (!found) return;
    const item: LiveItem = { id: opts.eventIds.seal(found.position), event: { type: "vote", card: found.card } };
    for (const stream of byUser.get(notice.recipientId) ?? []) push(stream, item);
  }
  opts.bus.subscribe((notice) => void deliver(notice).catch((error: unknown) => opts.onError?.(error)));

  // One timer for all streams: a revoked session's stream ends within `sweepMs` of this process hearing of it.
  const sweep = setInterval(() => {
    const nowMs = opts.now();
    for (const set of byUser.values()) {
      for (const stream of set) {
        const { familyId, expiresAtMs } = stream.owner;
        if (
          (familyId !== undefined && opts.revocations.isRevoked(familyId)) ||
          (expiresAtMs !== undefined && expiresAtMs <= nowMs) ||
          nowMs - stream.lastEventMs >= limits.idleMs
        ) {
          end(stream);
        }
      }
    }
  }, limits.sweepMs);
  sweep.unref();

  function register(owner: LiveStreamOwner): Stream {
    const set = byUser.get(owner.userId);
    if ((set?.size ?? 0) >= limits.perStudent) {
      throw new AppError("TOO_MANY_REQUESTS", "Too many live connections: close another tab or device first.", {
        retryAfterSeconds: 30,
      });
    }
    if (total >= limits.perProcess) {
      throw new AppError("SERVICE_UNAVAILABLE", "Live updates are busy; the app refreshes on its own meanwhile.", {
        retryAfterSeconds: 30,
      });
    }
    const stream: Stream = { owner, queue: [], lastEventMs: opts.now(), ended: false };
    if (set) set.add(stream);
    else byUser.set(owner.userId, new Set([stream]));
    total += 1;
    return stream;
  }

  async function* run(stream: Stream, lastEventId: string | null | undefined, signal?: AbortSignal) {
    const onAbort = () => end(stream);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const openedAt = new Date(opts.now());
      const from = lastEventId ? opts.eventIds.open(lastEventId) : undefined;
      const replayed = new Set<string>();
      if (from) {
        const start = { at: new Date(Date.parse(from.at) - RESUME_LOOKBACK_MS).toISOString(), id: from.id };
        for (const { card, position } of await cardsSince(opts.db, stream.owner.userId, start, REPLAY_MAX)) {
          replayed.add(card.id);
          yield { id: opts.eventIds.seal(position), event: { type: "vote", card } } satisfies LiveItem;
        }
      }
      // Where the next resume starts when no vote comes before the connection drops.
      yield { id: opts.eventIds.seal(positionAt(openedAt)), event: { type: "ready" } } satisfies LiveItem;
      while (!stream.ended) {
        const item = stream.queue.shift();
        if (item) {
          if (item.event.type === "vote" && replayed.has(item.event.card.id)) continue;
          yield item;
          continue;
        }
        await new Promise<void>((resolve) => (stream.wake = resolve));
        stream.wake = undefined;
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      end(stream);
      remove(stream);
    }
  }

  return {
    open(owner, lastEventId, signal) {
      const stream = register(owner);
      // Released when the stream ends, or at once if nobody ever reads it.
      signal?.addEventListener("abort", () => remove(stream), { once: true });
      return run(stream, lastEventId, signal);
    },
    publish: (notice) => opts.bus.publish(notice),
    size: () => total,
    limits,
    endAll() {
      for (const set of byUser.values()) for (const stream of set) end(stream);
    },
    async close() {
      clearInterval(sweep);
      for (const set of byUser.values()) for (const stream of set) end(stream);
      await opts.bus.close();
    },
  };
}

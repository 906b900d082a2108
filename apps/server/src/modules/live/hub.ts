import type { LiveEvent, VoteCard } from "@quad/contracts";
import type { Database } from "@quad/db";
import { AppError } from "../../errors";
import type { SessionRevocations } from "../auth/revocations";
import { cardsDeliveredBetween, cardsOf, votesDueBetween } from "../inbox/live-cards";
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
 * How often the hub announces the votes whose delivery moment came, and how far
 * behind the clock it reads: a vote's statement draws its moment before it
 * commits, so a moment that is only just past may belong to a vote not yet
 * visible. Reading a second behind, no committed vote is passed over, and an
 * open app hears of a vote about a second after it reached the inbox.
 */
export const DELIVERY_TICK_MS = 250;
export const DELIVERY_LAG_MS = 1_000;

export interface LiveStreamOwner {
  userId: string;
  familyId?: string;
  expiresAtMs?: number;
}

export interface LiveHub {
  /** Registers a stream (or refuses it: the caps), then yields its events until it ends or `signal` aborts. */
  open(owner: LiveStreamOwner, lastEventId: string | null | undefined, signal?: AbortSignal): AsyncIterable<LiveItem>;
  /** Announce to every process (this one included). Votes are not announced: each is heard at its delivery moment. */
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
  /** Every vote delivered by then was before this stream (or is in its replay); later ones come from the ticks. */
  fromHorizonMs: number;
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

  opts.bus.subscribe((notice) => {
    for (const stream of byUser.get(notice.userId) ?? []) push(stream, { event: { type: "state" } });
  });

  /** Every vote delivered by this moment was announced to the streams open then. */
  let horizonMs = opts.now() - DELIVERY_LAG_MS;
  /** The horizon of the tick under way: a stream opened meanwhile starts from it (its `ready` refreshes the rest). */
  let tickingUntil: number | undefined;
  const idOf = (stream: Stream, horizon: number) =>
    opts.eventIds.seal({ owner: stream.owner.userId, issuedAtMs: opts.now(), horizonMs: horizon });

  /**
   * Each process announces to the streams it holds the votes whose moment
   * came since its last tick: one indexed read of the due votes, then the
   * cards of those whose recipient has a stream here. Nothing is written, so
   * several processes each serve their own streams once, and a stream that
   * missed a tick (a restart) resumes from its last id's horizon.
   */
  async function tick(until: number) {
    if (total === 0) return;
    const due = await votesDueBetween(opts.db, new Date(horizonMs), new Date(until));
    const held = due.filter((vote) => byUser.has(vote.recipientId)).map((vote) => vote.id);
    const cards = await cardsOf(opts.db, held);
    const byRecipient = new Map<string, VoteCard[]>();
    for (const { recipientId, card } of cards)
      byRecipient.set(recipientId, [...(byRecipient.get(recipientId) ?? []), card]);
    for (const [recipientId, list] of byRecipient) {
      for (const stream of byUser.get(recipientId) ?? []) {
        if (stream.fromHorizonMs >= until) continue;
        // Only the tick's last event carries an id: a resume from it starts after all of them.
        list.forEach((card, i) =>
          push(stream, {
            id: i === list.length - 1 ? idOf(stream, until) : undefined,
            event: { type: "vote", card },
          }),
        );
      }
    }
  }
  const ticker = setInterval(() => {
    const until = opts.now() - DELIVERY_LAG_MS;
    if (tickingUntil !== undefined || until <= horizonMs) return;
    tickingUntil = until;
    tick(until)
      .then(() => (horizonMs = until))
      .catch((error: unknown) => opts.onError?.(error))
      .finally(() => (tickingUntil = undefined));
  }, DELIVERY_TICK_MS);
  ticker.unref();

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
    const stream: Stream = {
      owner,
      fromHorizonMs: tickingUntil ?? horizonMs,
      queue: [],
      lastEventMs: opts.now(),
      ended: false,
    };
    if (set) set.add(stream);
    else byUser.set(owner.userId, new Set([stream]));
    total += 1;
    return stream;
  }

  async function* run(stream: Stream, lastEventId: string | null | undefined, signal?: AbortSignal) {
    const onAbort = () => end(stream);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const from = lastEventId ? opts.eventIds.open(lastEventId, stream.owner.userId, opts.now()) : undefined;
      if (from !== undefined && from < stream.fromHorizonMs) {
        const missed = await cardsDeliveredBetween(
          opts.db,
          stream.owner.userId,
          new Date(from),
          new Date(stream.fromHorizonMs),
          REPLAY_MAX,
        );
        for (const card of missed) yield { event: { type: "vote", card } } satisfies LiveItem;
      }
      // Where the next resume starts when no vote comes before the connection drops.
      yield { id: idOf(stream, stream.fromHorizonMs), event: { type: "ready" } } satisfies LiveItem;
      while (!stream.ended) {
        const item = stream.queue.shift();
        if (item) {
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
      clearInterval(ticker);
      for (const set of byUser.values()) for (const stream of set) end(stream);
      await opts.bus.close();
    },
  };
}

import { randomUUID } from "node:crypto";
import { listenForNotices } from "../../notices/postgres-listener";

/**
 * Something a student's open streams should hear about now: their votes
 * left, skips left or cooldown changed. Received votes are not announced
 * here: each process reads them at their delivery moment (hub.ts).
 */
export interface LiveNotice {
  kind: "state";
  userId: string;
}

/**
 * Carries notices to every process. On Postgres: one LISTEN per process (on
 * the shared listener's own connection, never one per stream), and each
 * process routes what it hears to the streams it holds. On PGlite one
 * process owns the data, so the bus is in-process.
 */
export interface LiveBus {
  publish(notice: LiveNotice): void;
  subscribe(listener: (notice: LiveNotice) => void): void;
  close(): Promise<void>;
}

export const LIVE_CHANNEL = "quad_live";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `<sender> s <user>`: the sender skips its own (delivered already). */
const encode = (sender: string, notice: LiveNotice) => `${sender} s ${notice.userId}`;

function decode(payload: string): { sender: string; notice?: LiveNotice } {
  const [sender = "", kind, user = ""] = payload.split(" ");
  if (kind === "s" && UUID.test(user)) return { sender, notice: { kind: "state", userId: user } };
  return { sender };
}

export function createLocalLiveBus(): LiveBus {
  const listeners: ((notice: LiveNotice) => void)[] = [];
  return {
    publish: (notice) => listeners.forEach((listener) => listener(notice)),
    subscribe: (listener) => void listeners.push(listener),
    close: async () => void listeners.splice(0),
  };
}

export async function createPostgresLiveBus(
  url: string,
  opts: { onError?: (error: unknown) => void; onReconnect?: () => void } = {},
): Promise<LiveBus> {
  const listeners: ((notice: LiveNotice) => void)[] = [];
  const deliver = (notice: LiveNotice) => listeners.forEach((listener) => listener(notice));
  const self = randomUUID();
  const connection = await listenForNotices(url, LIVE_CHANNEL, {
    onNotice(payload) {
      const { sender, notice } = decode(payload);
      if (notice && sender !== self) deliver(notice);
    },
    // Notices sent while the connection was down are lost: clients catch up by resuming (Last-Event-ID) or refreshing.
    onReconnect: () => opts.onReconnect?.(),
  });
  return {
    publish(notice) {
      deliver(notice);
      connection.notify(encode(self, notice)).catch((error: unknown) => opts.onError?.(error));
    },
    subscribe: (listener) => void listeners.push(listener),
    async close() {
      listeners.splice(0);
      await connection.close();
    },
  };
}

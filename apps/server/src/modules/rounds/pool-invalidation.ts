import { randomUUID } from "node:crypto";
import postgres from "postgres";

/**
 * Tells every server process that cached candidate pools are out of date
 * (issue 8, "several processes"): a profile was verified, paused, moved to
 * another school or gender, or bought a boost in one process, and the
 * others must not keep drawing from what they loaded before.
 *
 * On Postgres the message goes through LISTEN/NOTIFY, so any number of
 * processes on one database hear it within milliseconds. On PGlite one
 * process owns the data directory, so telling this process is enough.
 */
export interface PoolInvalidationBus {
  /** Announce a change: one school's pools, or all of them when no school is named. */
  publish(schoolId?: number): void;
  /** Hear changes from every process (this one included). */
  subscribe(listener: (schoolId?: number) => void): void;
  close(): Promise<void>;
}

export const POOL_CHANNEL = "quad_candidate_pool";
const ALL = "*";

/** `<sender> <school id | *>`: the sender, so a process skips its own message (it already acted on it). */
const encode = (sender: string, schoolId?: number) => `${sender} ${schoolId === undefined ? ALL : String(schoolId)}`;
/** Anything but a school id (including a message from a newer or older version) means "everything". */
function decode(payload: string): { sender: string; schoolId?: number } {
  const [sender = "", target = ""] = payload.split(" ");
  return /^\d{1,9}$/.test(target) ? { sender, schoolId: Number(target) } : { sender };
}

export function createLocalInvalidationBus(): PoolInvalidationBus {
  const listeners: ((schoolId?: number) => void)[] = [];
  return {
    publish: (schoolId) => listeners.forEach((listener) => listener(schoolId)),
    subscribe: (listener) => void listeners.push(listener),
    close: async () => void listeners.splice(0),
  };
}

/**
 * LISTEN/NOTIFY on its own small postgres.js client (the listening session
 * must stay on one connection, outside the query pool). postgres.js
 * reconnects and listens again by itself; whatever was announced while the
 * connection was down is unknown, so every (re)connect after the first
 * invalidates everything.
 */
export async function createPostgresInvalidationBus(
  url: string,
  opts: { onError?: (error: unknown) => void } = {},
): Promise<PoolInvalidationBus> {
  const client = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: "quad-pool-bus" } });
  const listeners: ((schoolId?: number) => void)[] = [];
  const deliver = (schoolId?: number) => listeners.forEach((listener) => listener(schoolId));
  const self = randomUUID();
  let connections = 0;
  const subscription = await client.listen(
    POOL_CHANNEL,
    (payload) => {
      const message = decode(payload);
      if (message.sender !== self) deliver(message.schoolId);
    },
    () => {
      connections += 1;
      if (connections > 1) deliver(undefined);
    },
  );
  return {
    publish(schoolId) {
      // Forget locally at once (the next request may draw), then tell the others.
      deliver(schoolId);
      client.notify(POOL_CHANNEL, encode(self, schoolId)).catch((error: unknown) => opts.onError?.(error));
    },
    subscribe: (listener) => void listeners.push(listener),
    async close() {
      listeners.splice(0);
      await subscription.unlisten().catch(() => {});
      await client.end({ timeout: 5 });
    },
  };
}

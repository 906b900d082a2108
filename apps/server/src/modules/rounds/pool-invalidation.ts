import { randomUUID } from "node:crypto";
import { listenForNotices } from "../../notices/postgres-listener";

/**
 * Tells every server process that cached candidate pools are out of date
 * (docs/architecture.md "Several processes"): a profile was verified, paused, moved to
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

/** LISTEN/NOTIFY through the shared listener (notices/postgres-listener.ts). */
export async function createPostgresInvalidationBus(
  url: string,
  opts: { onError?: (error: unknown) => void } = {},
): Promise<PoolInvalidationBus> {
  const listeners: ((schoolId?: number) => void)[] = [];
  const deliver = (schoolId?: number) => listeners.forEach((listener) => listener(schoolId));
  const self = randomUUID();
  const connection = await listenForNotices(url, POOL_CHANNEL, {
    onNotice(payload) {
      const message = decode(payload);
      if (message.sender !== self) deliver(message.schoolId);
    },
    // Changes may have been missed while the connection was down.
    onReconnect: () => deliver(undefined),
  });
  return {
    publish(schoolId) {
      // Forget locally at once (the next request may draw), then tell the others.
      deliver(schoolId);
      connection.notify(encode(self, schoolId)).catch((error: unknown) => opts.onError?.(error));
    },
    subscribe: (listener) => void listeners.push(listener),
    async close() {
      listeners.splice(0);
      await connection.close();
    },
  };
}

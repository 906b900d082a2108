import { DEFAULT_CONNECT_TIMEOUT_MS, reconnectBackoff } from "@quad/db";
import postgres from "postgres";

export interface PostgresListener {
  /** NOTIFY on the channel from this listener's connection. */
  notify(payload: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTEN on its own small postgres.js client: the listening session must stay
 * on one connection, outside the query pool. postgres.js reconnects and
 * listens again by itself, on the primary of a multi-host URL after a
 * failover (decision 0032); whatever was announced while the connection was
 * down is unknown, so every (re)connect after the first calls `onReconnect`
 * for the caller to catch up (see decision 0004).
 */
export async function listenForNotices(
  url: string,
  channel: string,
  handlers: { onNotice(payload: string): void; onReconnect(): void },
): Promise<PostgresListener> {
  // The pool's reconnect pace: a failover's new primary is listened on as soon as it takes connections.
  const client = postgres(url, {
    max: 1,
    connect_timeout: DEFAULT_CONNECT_TIMEOUT_MS / 1000,
    backoff: reconnectBackoff,
    onnotice: () => {},
    connection: { application_name: `quad-${channel}` },
  });
  let connections = 0;
  const subscription = await client.listen(channel, handlers.onNotice, () => {
    connections += 1;
    if (connections > 1) handlers.onReconnect();
  });
  return {
    notify: async (payload) => void (await client.notify(channel, payload)),
    async close() {
      await subscription.unlisten().catch(() => {});
      await client.end({ timeout: 5 });
    },
  };
}

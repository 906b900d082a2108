import net from "node:net";

/**
 * A TCP proxy on a free loopback port that can black-hole its traffic, as a
 * network partition does: while `partition(true)`, bytes in both directions
 * (on open connections and on connections opened meanwhile) are held, not
 * forwarded, and nothing is closed; `partition(false)` delivers what was held,
 * in order, as TCP does once a partition heals. Nothing outside the test is
 * touched: it listens on its own port and connects to `target`.
 */
export interface BlackholeProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  /** `newConnections: false`: only the connections open now are cut off (a lost NAT entry), new ones pass. */
  partition(on: boolean, opts?: { newConnections?: boolean }): void;
  /** Connections accepted so far; of those open when the partition began, how many the client closed during it. */
  stats(): { accepted: number; droppedByClient: number };
  close(): Promise<void>;
}

interface Direction {
  to: net.Socket;
  /** Opened before the partition began (what a partition of open connections only cuts off). */
  cut: boolean;
  held: Buffer[];
  /** The sender ended or closed while held: pass that on after its bytes. */
  ended: boolean;
}

export async function startBlackholeProxy(target: { host: string; port: number }): Promise<BlackholeProxy> {
  let partitioned = false;
  let spareNew = false;
  let accepted = 0;
  let droppedByClient = 0;
  let partitionedAt = 0;
  const directions = new Set<Direction>();
  const sockets = new Set<net.Socket>();

  const flush = (direction: Direction) => {
    for (const chunk of direction.held.splice(0)) if (!direction.to.destroyed) direction.to.write(chunk);
    if (direction.ended) direction.to.destroy();
  };

  const pipe = (from: net.Socket, to: net.Socket, onClose?: () => void) => {
    const direction: Direction = { to, held: [], ended: false, cut: !(partitioned && spareNew) };
    directions.add(direction);
    const holding = () => (partitioned && direction.cut) || direction.held.length > 0;
    from.on("data", (chunk: Buffer) => {
      if (holding()) direction.held.push(chunk);
      else if (!to.destroyed) to.write(chunk);
    });
    from.on("close", () => {
      if (partitioned && direction.cut) onClose?.();
      direction.ended = true;
      if (!holding()) {
        flush(direction);
        directions.delete(direction);
      }
    });
    from.on("error", () => {});
  };

  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(target.port, target.host);
    const openedAt = performance.now();
    sockets.add(client).add(upstream);
    client.on("close", () => sockets.delete(client));
    upstream.on("close", () => sockets.delete(upstream));
    pipe(client, upstream, () => {
      if (openedAt < partitionedAt) droppedByClient++;
    });
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    partition(on, opts = {}) {
      if (on && !partitioned) partitionedAt = performance.now();
      partitioned = on;
      spareNew = on && opts.newConnections === false;
      if (on) for (const direction of directions) direction.cut = true;
      else
        for (const direction of directions) {
          flush(direction);
          if (direction.ended) directions.delete(direction);
        }
    },
    stats: () => ({ accepted, droppedByClient }),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import net from "node:net";

/**
 * Drops Postgres connections that stopped answering (decision 0033).
 *
 * A query written to an open connection waits for its answer as long as the
 * socket stays open, and across a network partition it stays open for as
 * long as the partition lasts: the statement timeout is Postgres' own and
 * cannot end a query Postgres never saw, TCP keepalive only probes a
 * connection with nothing unacknowledged, and Node offers no
 * TCP_USER_TIMEOUT. So every connection's socket is watched from here. When
 * one has sent bytes and heard nothing back for `answerTimeoutMs`, this asks
 * Postgres at the same address to answer a new connection (an SSLRequest,
 * which the postmaster answers with one byte) within `probeTimeoutMs`:
 *
 * - no answer: Postgres is unreachable, and every connection to it is
 *   destroyed with ETIMEDOUT, which postgres.js hands to each query waiting
 *   on it (a 503 to the request) before it reconnects;
 * - an answer: Postgres is there and the query is only slow; it may run on
 *   until the statement timeout ends it, and a connection still silent
 *   `giveUpMs` after its last write is destroyed all the same (this one
 *   connection is dead: a lost NAT entry, a moved address).
 *
 * Plain connections are timed by their own events (our write and data
 * listener). Under TLS the TLS socket postgres.js makes takes ours over and
 * its events stop, so the byte counts are polled instead; when a poll finds
 * both moved, their order is unknown and the connection counts as waiting
 * (at worst a probe after it went idle), but not as certainly waiting, so it
 * is not given up on while Postgres answers.
 */
export interface AnswerWatchdogOptions {
  answerTimeoutMs: number;
  probeTimeoutMs: number;
  /** Undefined: a slow connection to a Postgres that answers others is never given up on. */
  giveUpMs?: number;
  /** TCP keepalive's idle time on every connection. */
  keepAliveMs: number;
}

interface Watched {
  socket: net.Socket;
  endpoint: Endpoint;
  onData: () => void;
  /** performance.now() of the last write and the last byte read, from events. */
  wroteAt: number;
  readAt: number;
  /** Byte counts at the last poll (when events stopped: TLS). */
  read: number;
  written: number;
  /** performance.now() since when it has waited for an answer; undefined: not waiting. */
  waitingSince?: number;
  /** It wrote after its last read for sure (else it may be idle). */
  certain: boolean;
  /** Postgres answered a probe after this wait began: only giveUpMs ends the wait. */
  answeredElsewhere: boolean;
}

type Endpoint = { path: string } | { host: string; port: number };

/** The part of postgres.js' parsed options the socket factory reads. */
interface SocketOptions {
  host: string[];
  port: number[];
  path?: string | false;
}

/** An SSLRequest: Postgres answers it with "S" or "N" before any authentication. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

const keyOf = (endpoint: Endpoint) => ("path" in endpoint ? endpoint.path : `${endpoint.host}:${endpoint.port}`);

export function answerWatchdog(opts: AnswerWatchdogOptions) {
  const watched = new Set<Watched>();
  const probes = new Map<string, Promise<void>>();
  let nextHost = 0;
  let timer: NodeJS.Timeout | undefined;
  const pollMs = Math.max(10, Math.min(250, opts.answerTimeoutMs / 4));

  function poll() {
    const now = performance.now();
    for (const entry of watched) {
      if (entry.socket.destroyed) {
        watched.delete(entry);
        continue;
      }
      const wasWaitingSince = entry.waitingSince;
      if (entry.socket.listeners("data").includes(entry.onData)) timeByEvents(entry);
      else timeByCounts(entry, now);
      if (entry.waitingSince !== wasWaitingSince) entry.answeredElsewhere = false;
      if (entry.waitingSince === undefined) continue;
      const waited = now - entry.waitingSince;
      if (!entry.answeredElsewhere) {
        if (waited >= opts.answerTimeoutMs) check(entry.endpoint);
      } else if (entry.certain && opts.giveUpMs !== undefined && waited >= opts.giveUpMs) {
        drop([entry], `no answer on this connection for ${Math.round(waited)} ms`);
      }
    }
    if (watched.size === 0) stop();
  }

  function timeByEvents(entry: Watched) {
    entry.waitingSince = entry.wroteAt > entry.readAt ? entry.wroteAt : undefined;
    entry.certain = true;
  }

  function timeByCounts(entry: Watched, now: number) {
    const read = entry.socket.bytesRead;
    const written = entry.socket.bytesWritten;
    const answered = read !== entry.read;
    const sent = written !== entry.written;
    entry.read = read;
    entry.written = written;
    if (sent) {
      entry.waitingSince = now;
      entry.certain = !answered;
    } else if (answered) {
      entry.waitingSince = undefined;
    }
  }

  /** One probe per address at a time; its outcome applies to every connection waiting there. */
  function check(endpoint: Endpoint) {
    const key = keyOf(endpoint);
    if (probes.has(key)) return;
    const startedAt = performance.now();
    const probe = answers(endpoint, opts.probeTimeoutMs).then((alive) => {
      probes.delete(key);
      const there = [...watched].filter((entry) => keyOf(entry.endpoint) === key);
      if (!alive) {
        drop(
          there,
          `no answer within ${opts.answerTimeoutMs} ms, nor to a new connection within ${opts.probeTimeoutMs} ms`,
        );
        return;
      }
      for (const entry of there)
        if (entry.waitingSince !== undefined && entry.waitingSince <= startedAt) entry.answeredElsewhere = true;
    });
    probes.set(key, probe);
  }

  function drop(entries: Watched[], why: string) {
    for (const entry of entries) {
      watched.delete(entry);
      const error = Object.assign(new Error(`Postgres did not answer: ${why}; the connection is dropped`), {
        code: "ETIMEDOUT",
      });
      entry.socket.destroy(error);
    }
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = undefined;
  }

  return {
    /** postgres.js's `socket` option: connects as postgres.js would (host after host), and watches the socket. */
    socket(options: SocketOptions): net.Socket {
      const index = nextHost++ % options.host.length;
      const endpoint: Endpoint = options.path
        ? { path: options.path }
        : { host: options.host[index]!, port: options.port[index] ?? options.port[0]! };
      // Not waiting for "connect": postgres.js times the connection attempt from here.
      const socket = "path" in endpoint ? net.connect(endpoint.path) : net.connect(endpoint.port, endpoint.host);
      if (!("path" in endpoint)) {
        socket.setKeepAlive(true, opts.keepAliveMs);
        // postgres.js names the TLS server after it (SNI, verify-full).
        Object.assign(socket, { host: endpoint.host, port: endpoint.port });
      }
      const entry: Watched = {
        socket,
        endpoint,
        onData: () => (entry.readAt = performance.now()),
        wroteAt: 0,
        readAt: 0,
        read: 0,
        written: 0,
        certain: false,
        answeredElsewhere: false,
      };
      socket.on("data", entry.onData);
      const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
      socket.write = ((...args: unknown[]) => {
        entry.wroteAt = performance.now();
        return write(...args);
      }) as typeof socket.write;
      watched.add(entry);
      timer ??= setInterval(poll, pollMs).unref();
      return socket;
    },
    stop,
  };
}

/** Whether Postgres at `endpoint` answers a new connection's SSLRequest within `timeoutMs`. */
function answers(endpoint: Endpoint, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = "path" in endpoint ? net.connect(endpoint.path) : net.connect(endpoint.port, endpoint.host);
    const done = (alive: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once("data", () => done(true));
    socket.once("error", () => done(false));
    socket.once("close", () => done(false));
    socket.write(SSL_REQUEST);
  });
}

import http from "node:http";

/** One server-sent event as read off the wire. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Reads a text/event-stream answer as a client does (fetch, no EventSource
 * in Node 20): the status and headers, every event as it arrives, and
 * whether the server ended the stream.
 */
export async function openEventStream(url: string, headers: Record<string, string> = {}) {
  // node:http rather than fetch: closing destroys the socket, so the server sees the client leave at once.
  const request = http.get(url, { headers: { accept: "text/event-stream", ...headers } });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once("response", resolve);
    request.once("error", reject);
  });
  const contentType = String(response.headers["content-type"] ?? "");
  const res = {
    status: response.statusCode ?? 0,
    headers: { get: (name: string) => (response.headers[name.toLowerCase()] as string | undefined) ?? null },
    async json(): Promise<unknown> {
      let text = "";
      for await (const chunk of response) text += String(chunk);
      return JSON.parse(text) as unknown;
    },
  };
  const events: SseEvent[] = [];
  /** Comment lines (heartbeats) seen so far. */
  let comments = 0;
  let ended = false;
  let waiters: (() => void)[] = [];
  const notify = () => {
    const current = waiters;
    waiters = [];
    current.forEach((wake) => wake());
  };
  const reading = (async () => {
    if (!contentType.startsWith("text/event-stream")) return;
    response.setEncoding("utf8");
    let buffer = "";
    try {
      for await (const chunk of response as AsyncIterable<string>) {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { data: "" };
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) {
              comments += 1;
              continue;
            }
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
            if (field === "id") event.id = value;
            else if (field === "event") event.event = value;
            else if (field === "data") data.push(value);
          }
          if (data.length === 0 && event.id === undefined && event.event === undefined) continue;
          event.data = data.join("\n");
          events.push(event);
          notify();
        }
      }
    } catch {
      // destroyed by close()
    }
    ended = true;
    notify();
  })();

  /** The first event (from `from` on) that matches, within `timeoutMs`. */
  async function next(match: (event: SseEvent) => boolean, timeoutMs = 5000, from = 0): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.slice(from).find(match);
      if (found) return found;
      if (ended) throw new Error(`stream ended without the event; got ${JSON.stringify(events)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves true once the server ended the stream, false after `timeoutMs`. */
  async function endedWithin(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!ended && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadline - Date.now());
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return ended;
  }

  return {
    res,
    events,
    comments: () => comments,
    next,
    endedWithin,
    async close() {
      request.destroy();
      response.destroy();
      await reading;
    },
  };
}

export type EventStream = Awaited<ReturnType<typeof openEventStream>>;

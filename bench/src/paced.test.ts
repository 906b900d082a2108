import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { paced } from "./paced";

/** A local server that notes when each request arrived and answers after `delayMs`. */
async function recordingServer(delayMs: number) {
  const arrivals: number[] = [];
  const warmed = new Set<unknown>();
  const server: Server = createServer((request, response) => {
    if (request.url === "/warm") {
      warmed.add(request.socket);
      response.end("ok");
      return;
    }
    arrivals.push(performance.now());
    request.resume();
    setTimeout(() => response.end("ok"), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, arrivals, warmed, close: () => new Promise((r) => server.close(r)) };
}

/** A paced pass of `GET /` against a recording server, its connections opened on `/warm`. */
const pass = (base: string, opts: Partial<Parameters<typeof paced>[1]> & { rate: number }) =>
  paced(base, { requests: [{ method: "GET", path: "/" }], mode: "duration", warmPath: "/warm", ...opts });

describe("paced load", () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(() => close?.());

  it("spreads requests over the second instead of sending a second's worth at once", async () => {
    const server = await recordingServer(0);
    close = server.close;
    const m = await pass(server.base, { durationS: 1, rate: 100 });
    expect(m.requests).toBe(100);
    expect(m.statuses.get(200)).toBe(100);
    // One every 10 ms, so about 10 in the first 100 ms (room for a busy machine); a burst would put all 100 there.
    const start = server.arrivals[0]!;
    const inFirstTenth = server.arrivals.filter((t) => t - start < 100).length;
    expect(inFirstTenth).toBeLessThanOrEqual(30);
    expect(server.arrivals.at(-1)! - start).toBeGreaterThan(800);
  });

  it("charges a request for the time it waited behind others, counted from when it was due", async () => {
    const server = await recordingServer(20);
    close = server.close;
    // One connection, 20 ms per answer, one request due every 5 ms: the queue grows by 15 ms per request.
    const m = await pass(server.base, {
      requests: Array.from({ length: 20 }, () => ({ method: "GET" as const, path: "/" })),
      mode: "each-once",
      connections: 1,
      rate: 200,
    });
    expect(m.requests).toBe(20);
    expect(Math.min(...m.latencies)).toBeGreaterThanOrEqual(15);
    // The last was due at 95 ms and answered after the other 19 (about 400 ms): well over its own 20 ms.
    expect(Math.max(...m.latencies)).toBeGreaterThan(250);
  });

  it("opens every connection before the clock starts, so no request is charged for a connect", async () => {
    const server = await recordingServer(0);
    close = server.close;
    const m = await pass(server.base, { durationS: 0.5, rate: 100, connections: 8 });
    expect(server.warmed.size).toBe(8);
    expect(m.requests).toBe(50);
    expect(server.arrivals).toHaveLength(50);
  });

  it("reports the load generator's own longest pause, which the requests due in it were charged for", async () => {
    const server = await recordingServer(0);
    close = server.close;
    // The generator's event loop held for 80 ms a quarter second into the pass.
    setTimeout(() => {
      const until = performance.now() + 80;
      while (performance.now() < until);
    }, 250);
    const m = await pass(server.base, { durationS: 0.6, rate: 200 });
    expect(m.generatorStallMs).toBeGreaterThanOrEqual(70);
    expect(Math.max(...m.latencies)).toBeGreaterThanOrEqual(60);
  });
});

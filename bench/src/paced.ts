import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { Pool } from "undici";
import {
  CONNECTIONS,
  DURATION_S,
  addCpu,
  assertLocal,
  emptyMeasurement,
  requestHeaders,
  type BenchRequest,
  type LoadOptions,
  type Measurement,
} from "./load";

/**
 * Latency at a stated load (decision 0025): requests leave on a fixed
 * schedule, one every 1/rate seconds, whether or not earlier ones have been
 * answered (an open loop), and each response time counts from when its
 * request was due, so a request that waited for a free connection or for a
 * late timer is charged for the wait. autocannon's rate option is not this:
 * each connection sends back to back until its quota for the second is used,
 * then idles, so a "half rate" pass is saturation for half of every second.
 */
export async function paced(
  baseUrl: string,
  opts: LoadOptions & {
    /** Requests per second. */
    rate: number;
    /** A cheap GET sent once on each connection before the schedule starts (default /api/health). */
    warmPath?: string;
  },
): Promise<Measurement> {
  assertLocal(baseUrl);
  if (!(opts.rate > 0)) throw new Error(`paced: rate must be positive, got ${opts.rate}`);
  const m = opts.into ?? emptyMeasurement();
  const total =
    opts.mode === "each-once" ? opts.requests.length : Math.round(opts.rate * (opts.durationS ?? DURATION_S));
  if (total === 0 || opts.requests.length === 0) return m;
  const connections = opts.connections ?? CONNECTIONS;
  const pool = new Pool(baseUrl, { connections, pipelining: 1 });
  // Every connection opened before the clock starts: opened on demand, the first 50 connects and
  // first requests stalled each pass's first 0.1–0.4 s, which alone made the p99 of a 3 s pass.
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const response = await pool.request({ method: "GET", path: opts.warmPath ?? "/api/health" });
      await response.body.dump();
    }),
  );
  const intervalMs = 1000 / opts.rate;
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const cpuBefore = opts.cpu?.();
  const started = performance.now();
  let sent = 0;
  let answered = 0;
  let lastResponse = started;

  const send = async (r: BenchRequest, dueAt: number) => {
    try {
      const response = await pool.request({
        method: r.method,
        path: r.path,
        headers: requestHeaders(r),
        body: r.body,
      });
      await response.body.dump();
      m.statuses.set(response.statusCode, (m.statuses.get(response.statusCode) ?? 0) + 1);
    } catch {
      m.errors += 1;
    }
    lastResponse = performance.now();
    m.latencies.push(lastResponse - dueAt);
    answered += 1;
  };

  await new Promise<void>((resolve) => {
    const inFlight: Promise<void>[] = [];
    // A timer cannot fire more often than every millisecond: each tick sends every request now due.
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + sent * intervalMs <= now) {
        inFlight.push(send(opts.requests[sent % opts.requests.length]!, started + sent * intervalMs));
        sent += 1;
      }
      if (sent < total) setTimeout(tick, Math.max(0, started + sent * intervalMs - performance.now()));
      else void Promise.all(inFlight).then(() => resolve());
    };
    tick();
  });
  loopDelay.disable();
  await pool.close();
  m.generatorStallMs = Math.max(m.generatorStallMs ?? 0, loopDelay.max / 1e6);

  addCpu(m, cpuBefore, opts.cpu?.());
  m.requests += answered;
  m.seconds += (lastResponse - started) / 1000;
  return m;
}

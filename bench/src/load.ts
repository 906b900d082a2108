import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import type { CpuSample } from "./cpu";

/** 50 connections, as the figures were measured. */
export const CONNECTIONS = 50;
export const DURATION_S = 10;

export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What one case measured, possibly over several passes. */
export interface Measurement {
  requests: number;
  seconds: number;
  /** Response times in ms. */
  latencies: number[];
  statuses: Map<number, number>;
  errors: number;
  /** CPU seconds the server and PostgreSQL used while it ran (when the load was given a sampler). */
  cpu: CpuSample;
  /**
   * The longest the load generator's own event loop was held up during a paced pass (ms): a
   * request due then left late and was charged for it, so a p99 near this is the generator's.
   */
  generatorStallMs?: number;
}

export const emptyMeasurement = (): Measurement => ({
  requests: 0,
  seconds: 0,
  latencies: [],
  statuses: new Map(),
  errors: 0,
  cpu: { server: 0, postgres: 0, generator: 0 },
});

/** CPU µs per request, of the server, of PostgreSQL or of the load generator. */
export const cpuPerRequest = (m: Measurement, of: keyof CpuSample) =>
  m.requests > 0 ? (m.cpu[of] * 1e6) / m.requests : Number.NaN;

export function rps(m: Measurement): number {
  return m.seconds > 0 ? m.requests / m.seconds : 0;
}

export function percentile(m: Measurement, p: number): number {
  if (m.latencies.length === 0) return Number.NaN;
  const sorted = Float64Array.from(m.latencies).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const non2xx = (m: Measurement) =>
  [...m.statuses].filter(([status]) => status < 200 || status > 299).reduce((sum, [, n]) => sum + n, 0);

/** What a load run is given: the requests, how to send them, and where to add what it measured. */
export interface LoadOptions {
  requests: BenchRequest[];
  /** "each-once": every request once, in order; "duration": cycle through them for `durationS`. */
  mode: "duration" | "each-once";
  durationS?: number;
  connections?: number;
  into?: Measurement;
  /** Reads the CPU used so far (cpu.ts), before and after the run. */
  cpu?: () => CpuSample;
}

export function assertLocal(baseUrl: string): void {
  if (!baseUrl.startsWith("http://127.0.0.1:")) throw new Error("bench traffic goes to 127.0.0.1 only");
}

export const requestHeaders = (r: BenchRequest): Record<string, string> => ({
  ...(r.body ? { "content-type": "application/json" } : {}),
  ...r.headers,
});

/** Adds the CPU used between two samples to the measurement. */
export function addCpu(m: Measurement, before: CpuSample | undefined, after: CpuSample | undefined): void {
  if (!before || !after) return;
  m.cpu.server += after.server - before.server;
  m.cpu.postgres += after.postgres - before.postgres;
  m.cpu.generator += after.generator - before.generator;
}

/**
 * One autocannon run against 127.0.0.1, recording every response time. Either
 * for a duration with a fixed set of requests (cycled through by each
 * connection), or for exactly `requests.length` requests, each sent once
 * (a pass over prepared voters).
 */
export async function load(baseUrl: string, opts: LoadOptions): Promise<Measurement> {
  assertLocal(baseUrl);
  const m = opts.into ?? emptyMeasurement();
  const connections = Math.min(
    opts.connections ?? CONNECTIONS,
    opts.mode === "each-once" ? opts.requests.length : Infinity,
  );
  if (connections === 0) return m;
  let next = 0;
  const pick = () =>
    opts.requests[
      opts.mode === "each-once" ? Math.min(next++, opts.requests.length - 1) : next++ % opts.requests.length
    ]!;
  let lastResponse = 0;
  let count = 0;
  const cpuBefore = opts.cpu?.();
  const started = performance.now();
  let finish: (error: unknown) => void = () => {};
  const done = new Promise<void>((resolve, reject) => (finish = (error) => (error ? reject(error) : resolve())));
  const instance = autocannon(
    {
      url: baseUrl,
      connections,
      ...(opts.mode === "each-once" ? { amount: opts.requests.length } : { duration: opts.durationS ?? DURATION_S }),
      timeout: 30,
      requests: [
        {
          setupRequest: (request) => {
            const r = pick();
            return {
              ...request,
              method: r.method,
              path: r.path,
              headers: requestHeaders(r),
              body: r.body ?? "",
            };
          },
        },
      ],
    },
    (error) => finish(error),
  );
  instance.on("response", (_client, statusCode, _bytes, responseTime) => {
    count += 1;
    lastResponse = performance.now();
    m.latencies.push(responseTime);
    m.statuses.set(statusCode, (m.statuses.get(statusCode) ?? 0) + 1);
  });
  instance.on("reqError", () => (m.errors += 1));
  await done;
  addCpu(m, cpuBefore, opts.cpu?.());
  m.requests += count;
  m.seconds += ((lastResponse || performance.now()) - started) / 1000;
  return m;
}

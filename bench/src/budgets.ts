import { CONNECTIONS, cpuPerRequest, non2xx, percentile, rps, type Measurement } from "./load";
import type { PgbenchResult } from "./pgbench";
import { p50, type Budget, type CampusReport, type Protocol, type Row } from "./report";

/** p99 budgets at half rate: reads within 20 ms, writes (opening a round, voting) within 30 ms, or 1.5× the floor. */
export const READ_P99_MS = 20;
export const WRITE_P99_MS = 30;
const FLOOR_FACTOR = 1.5;
/** An app read route's throughput as a share of its own service alone in a plain route. */
const READ_SHARE_OF_ALONE = 0.85;
/** The app's tRPC endpoint over the official Fastify adapter, on the same SELECT 1 procedure. */
const ENDPOINT_OVER_ADAPTER = 2;
/** The write paths, by the name their budget lines give them and their row's path. */
const WRITE_PATHS: [string, string][] = [
  ["/votes/store", "POST /votes/store"],
  ["/prompts/random (opens a round)", "GET /prompts/random"],
];

/** A hot path measured again at half its own maximum rate: latency at a stated load, not at saturation. */
export interface StatedLoad {
  name: string;
  protocol: Protocol;
  rate: number;
  m: Measurement;
  p99BudgetMs: number;
}

export const find = (rows: Row[], path: string, protocol: Protocol) =>
  rows.find((r) => r.path.startsWith(path) && r.protocol === protocol && !r.aloneOf);

/**
 * The budgets, as ruled (docs/performance.md "Budgets"), each against a
 * measurement of the same run:
 * - writes: Postgres CPU per request at most pgbench tpcb-like's Postgres CPU
 *   per transaction at the same client count;
 * - reads: each app route at least 0.85 of its own service alone in a plain route;
 * - web tier: the app's tRPC endpoint at least 2× the official Fastify adapter on SELECT 1;
 * - latency: p99 at half rate at most the larger of 20 ms (reads) / 30 ms
 *   (writes) and 1.5× the same protocol's SELECT 1 floor.
 */
export function campusBudgets(
  rows: Row[],
  tpcb: PgbenchResult,
  statedLoads: StatedLoad[],
  floors: Map<Protocol, Measurement>,
): Budget[] {
  const budgets: Budget[] = [];
  const tpcbPg = tpcb.cpuUs?.postgres ?? Number.NaN;
  for (const protocol of ["REST", "tRPC"] as const) {
    for (const [name, path] of WRITE_PATHS) {
      const row = find(rows, path, protocol);
      if (!row) continue;
      const pg = cpuPerRequest(row.m, "postgres");
      budgets.push({
        name: `${name} over ${protocol}: Postgres CPU`,
        met: pg <= tpcbPg && non2xx(row.m) === 0,
        detail: `${pg.toFixed(0)} µs a request (≤ tpcb-like's ${tpcbPg.toFixed(0)} µs a transaction at -c ${CONNECTIONS})`,
      });
    }
  }
  for (const alone of rows.filter((r) => r.aloneOf)) {
    const path = alone.aloneOf!.path;
    for (const protocol of ["REST", "tRPC"] as const) {
      const row = rows.find((r) => r.path === path && r.protocol === protocol && !r.aloneOf && !r.halfRate);
      if (!row) continue;
      const share = rps(row.m) / rps(alone.m);
      budgets.push({
        name: `${path.replace(/^GET /, "")} over ${protocol}: against its service alone`,
        met: share >= READ_SHARE_OF_ALONE && non2xx(row.m) === 0,
        detail: `${rps(row.m).toFixed(0)} req/s = ${share.toFixed(2)} of ${rps(alone.m).toFixed(0)} (≥ ${READ_SHARE_OF_ALONE})`,
      });
    }
  }
  const endpoint = rows.find((r) => r.path === "GET SELECT 1 (app's tRPC endpoint)");
  const adapter = rows.find((r) => r.path.startsWith("GET SELECT 1 (official tRPC adapter)") && !r.halfRate);
  if (endpoint && adapter) {
    const times = rps(endpoint.m) / rps(adapter.m);
    budgets.push({
      name: "web tier: the app's tRPC endpoint against the official Fastify adapter on SELECT 1",
      met: times >= ENDPOINT_OVER_ADAPTER,
      detail: `${rps(endpoint.m).toFixed(0)} vs ${rps(adapter.m).toFixed(0)} req/s = ${times.toFixed(2)}× (≥ ${ENDPOINT_OVER_ADAPTER}×)`,
    });
  }
  for (const s of statedLoads) {
    const p99 = percentile(s.m, 99);
    const floor = floors.get(s.protocol);
    const floorP99 = floor ? percentile(floor, 99) : Number.NaN;
    const bar = Math.max(s.p99BudgetMs, FLOOR_FACTOR * (Number.isFinite(floorP99) ? floorP99 : 0));
    budgets.push({
      name: `${s.name} at half rate: p99`,
      met: p99 <= bar && non2xx(s.m) === 0,
      detail:
        `${p99.toFixed(1)} ms at ${Math.round(s.rate)} req/s (≤ ${bar.toFixed(1)} ms: the larger of ${s.p99BudgetMs} ms and ` +
        `${FLOOR_FACTOR}× SELECT 1's p99 at half rate, ${floorP99.toFixed(1)} ms); the load generator's longest pause ${(s.m.generatorStallMs ?? Number.NaN).toFixed(0)} ms`,
    });
  }
  return budgets;
}

/** Trends, printed beside the budgets and never budgets: throughput against pgbench, and growth with the campus. */
export function writeTrends(rows: Row[], tpcb: PgbenchResult, tpcbAtPool: PgbenchResult, poolSize: number): string[] {
  return (["REST", "tRPC"] as const).flatMap((protocol) =>
    WRITE_PATHS.flatMap(([name, path]) => {
      const row = find(rows, path, protocol);
      if (!row) return [];
      const pgAtPool = tpcbAtPool.cpuUs?.postgres;
      return [
        `Trend: ${name} over ${protocol} ${rps(row.m).toFixed(0)} req/s = ${(rps(row.m) / tpcb.tps).toFixed(2)}× tpcb-like ${tpcb.tps.toFixed(0)} tps` +
          (pgAtPool
            ? `; Postgres CPU against tpcb-like at -c ${poolSize}: ${pgAtPool.toFixed(0)} µs a transaction`
            : ""),
      ];
    }),
  );
}

/** Growth (a trend): every hot path's p50 at 50,000 students against its p50 at 500. */
export function growthTrends(big: CampusReport, small: CampusReport): string[] {
  return big.rows
    .filter((row) => row.ceiling && !row.path.includes("SELECT 1") && !row.aloneOf)
    .flatMap((row) => {
      const other = small.rows.find((r) => r.path === row.path && r.protocol === row.protocol);
      if (!other) return [];
      const growth = p50(row) / p50(other);
      return [
        `Trend: growth of ${row.path} over ${row.protocol}: p50 ${p50(row).toFixed(2)} ms at 50,000 vs ${p50(other).toFixed(2)} ms at 500 (${growth.toFixed(2)}×)`,
      ];
    });
}

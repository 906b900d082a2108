import { describe, expect, it } from "vitest";
import { campusBudgets, type StatedLoad } from "./budgets";
import type { Measurement } from "./load";
import type { PgbenchResult } from "./pgbench";
import type { Row } from "./report";

/** A measurement of `rps` requests a second for 10 s, with the given Postgres CPU µs a request and p99. */
function measured(rps: number, opts: { pgUs?: number; p99Ms?: number } = {}): Measurement {
  const requests = rps * 10;
  const latencies = Array.from({ length: 100 }, (_, i) => (i >= 98 ? (opts.p99Ms ?? 5) : 1));
  return {
    requests,
    seconds: 10,
    latencies,
    statuses: new Map([[200, requests]]),
    errors: 0,
    cpu: { server: 0, postgres: ((opts.pgUs ?? 0) * requests) / 1e6, generator: 0 },
  };
}

const tpcb: PgbenchResult = { script: "tpcb-like", tps: 3000, latencyMs: 10, cpuUs: { postgres: 450, pgbench: 100 } };

function rowsWith(opts: { votePgUs: number; appMe: number; aloneMe: number; endpoint: number; adapter: number }) {
  const plain: Row = { path: "GET SELECT 1 (plain Fastify route)", protocol: "REST", m: measured(10_000) };
  const endpoint: Row = { path: "GET SELECT 1 (app's tRPC endpoint)", protocol: "tRPC", m: measured(opts.endpoint) };
  const adapter: Row = {
    path: "GET SELECT 1 (official tRPC adapter) vs plain",
    protocol: "tRPC",
    m: measured(opts.adapter),
    ceiling: plain,
  };
  const vote: Row = { path: "POST /votes/store", protocol: "REST", m: measured(2000, { pgUs: opts.votePgUs }) };
  const me: Row = { path: "GET /users/me", protocol: "REST", m: measured(opts.appMe), ceiling: plain };
  const meTrpc: Row = { path: "GET /users/me", protocol: "tRPC", m: measured(opts.appMe), ceiling: endpoint };
  const alone: Row = {
    path: "GET /users/me, its service alone (plain route)",
    protocol: "REST",
    m: measured(opts.aloneMe),
    aloneOf: me,
  };
  return [plain, endpoint, adapter, vote, me, meTrpc, alone];
}

const lines = (rows: Row[], loads: StatedLoad[] = [], floorP99 = 10) =>
  campusBudgets(
    rows,
    tpcb,
    loads,
    new Map([
      ["REST", measured(5000, { p99Ms: floorP99 })],
      ["tRPC", measured(5000, { p99Ms: floorP99 })],
    ]),
  );

describe("the ruled budgets", () => {
  it("hold a write's Postgres CPU a request to tpcb-like's a transaction", () => {
    const met = lines(rowsWith({ votePgUs: 440, appMe: 900, aloneMe: 1000, endpoint: 8000, adapter: 4000 }));
    expect(met.find((b) => b.name === "/votes/store over REST: Postgres CPU")?.met).toBe(true);
    const missed = lines(rowsWith({ votePgUs: 460, appMe: 900, aloneMe: 1000, endpoint: 8000, adapter: 4000 }));
    expect(missed.find((b) => b.name === "/votes/store over REST: Postgres CPU")).toMatchObject({
      met: false,
      detail: "460 µs a request (≤ tpcb-like's 450 µs a transaction at -c 50)",
    });
  });

  it("hold each read, over both protocols, to 0.85 of its service alone", () => {
    const at = (appMe: number) =>
      lines(rowsWith({ votePgUs: 400, appMe, aloneMe: 1000, endpoint: 8000, adapter: 4000 })).filter((b) =>
        b.name.startsWith("/users/me over"),
      );
    expect(at(850).map((b) => [b.name, b.met])).toEqual([
      ["/users/me over REST: against its service alone", true],
      ["/users/me over tRPC: against its service alone", true],
    ]);
    expect(at(840).every((b) => !b.met)).toBe(true);
  });

  it("hold the app's tRPC endpoint to twice the official adapter", () => {
    const web = (endpoint: number) =>
      lines(rowsWith({ votePgUs: 400, appMe: 900, aloneMe: 1000, endpoint, adapter: 4000 })).find((b) =>
        b.name.startsWith("web tier"),
      );
    expect(web(8000)?.met).toBe(true);
    expect(web(7900)?.met).toBe(false);
  });

  it("hold a p99 at half rate to the larger of its bar and 1.5× the SELECT 1 floor", () => {
    const rows = rowsWith({ votePgUs: 400, appMe: 900, aloneMe: 1000, endpoint: 8000, adapter: 4000 });
    const load = (p99Ms: number): StatedLoad => ({
      name: "/users/me over REST",
      protocol: "REST",
      rate: 500,
      m: measured(500, { p99Ms }),
      p99BudgetMs: 20,
    });
    const p99 = (p99Ms: number, floor: number) =>
      lines(rows, [load(p99Ms)], floor).find((b) => b.name === "/users/me over REST at half rate: p99")?.met;
    expect(p99(19, 5)).toBe(true);
    expect(p99(21, 5)).toBe(false);
    // A busy machine: the floor itself at 30 ms lets a path through up to 45 ms.
    expect(p99(44, 30)).toBe(true);
    expect(p99(46, 30)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { medianByTps, transactionCpu, type PgbenchResult } from "./pgbench";

const run = (tps: number): PgbenchResult => ({ script: "tpcb-like", tps, latencyMs: 50_000 / tps });

describe("the pgbench anchor's median", () => {
  it("takes the middle run, not the first or the best", () => {
    expect(medianByTps([run(4200), run(3000), run(3400)]).tps).toBe(3400);
  });

  it("keeps that run's latency with its tps", () => {
    const middle = medianByTps([run(900), run(1300), run(1100)]);
    expect(middle).toEqual(run(1100));
  });

  it("refuses no runs", () => {
    expect(() => medianByTps([])).toThrow(/no results/);
  });
});

describe("CPU per pgbench transaction", () => {
  it("gives the machine's busy time less pgbench's own to Postgres, per transaction", () => {
    // 19.6 s of busy cores and 3.4 s of pgbench (clock ticks of 10 ms) over 31,200 transactions.
    const cpu = transactionCpu({ busyTicks: 1960, pgbenchTicks: 340, transactions: 31_200 });
    expect(cpu.postgres).toBeCloseTo(519.2, 1);
    expect(cpu.pgbench).toBeCloseTo(109.0, 1);
  });
});

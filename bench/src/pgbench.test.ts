import { describe, expect, it } from "vitest";
import { medianByTps, type PgbenchResult } from "./pgbench";

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

import type { StatementObserver } from "@quad/db";
import { Counter, Gauge } from "prom-client";
import { registry } from "./registry";

/**
 * The database pool's load. postgres.js reports nothing of its connections,
 * so it is read off the statements this process has sent and not yet seen
 * settle (observeStatements): up to the pool's size each has a connection;
 * beyond it they wait behind others. Statements inside a transaction count
 * while they run, not between them, so a pool held by slow transactions reads
 * lower than it is.
 */
export function poolMetrics(size: number): StatementObserver {
  let inFlight = 0;
  for (const name of [
    "quad_db_pool_size",
    "quad_db_pool_in_use",
    "quad_db_pool_waiting",
    "quad_db_statements_waited_total",
  ]) {
    registry.removeSingleMetric(name);
  }
  new Gauge({
    name: "quad_db_pool_size",
    help: "Connections this process may open to Postgres (DATABASE_POOL_SIZE)",
    registers: [registry],
    collect() {
      this.set(size);
    },
  });
  new Gauge({
    name: "quad_db_pool_in_use",
    help: "Connections running a statement at the scrape (statements in flight, at most the pool's size)",
    registers: [registry],
    collect() {
      this.set(Math.min(inFlight, size));
    },
  });
  new Gauge({
    name: "quad_db_pool_waiting",
    help: "Statements sent beyond the pool's size at the scrape, waiting behind others",
    registers: [registry],
    collect() {
      this.set(Math.max(0, inFlight - size));
    },
  });
  const waited = new Counter({
    name: "quad_db_statements_waited_total",
    help: "Statements sent while every connection was busy (the pool was saturated)",
    registers: [registry],
  });
  return () => {
    if (inFlight >= size) waited.inc();
    inFlight += 1;
    return () => {
      inFlight -= 1;
    };
  };
}

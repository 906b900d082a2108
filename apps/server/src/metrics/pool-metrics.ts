import type { PoolState } from "@quad/db";
import { Counter, Gauge } from "prom-client";
import { registry } from "./registry";

/**
 * The database pool's load, read from the pool at each scrape: nothing is
 * counted per statement. (Counting statements by wrapping the driver's client
 * cost 6 % more server CPU a request, most of it garbage collection.)
 */
export function poolMetrics(read: () => PoolState): void {
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
      this.set(read().size);
    },
  });
  new Gauge({
    name: "quad_db_pool_in_use",
    help: "Connections opening, running statements or held by a transaction at the scrape",
    registers: [registry],
    collect() {
      this.set(read().inUse);
    },
  });
  new Gauge({
    name: "quad_db_pool_waiting",
    help: "Statements at the scrape queued for a connection or written behind another statement on one",
    registers: [registry],
    collect() {
      this.set(read().waiting);
    },
  });
  let counted = 0;
  new Counter({
    name: "quad_db_statements_waited_total",
    help: "Statements sent while no connection was idle or left to open (the pool was saturated)",
    registers: [registry],
    collect() {
      const { waited } = read();
      this.inc(waited - counted);
      counted = waited;
    },
  });
}

import { Gauge } from "prom-client";
import type { LiveHub } from "../modules/live/hub";
import { registry } from "./registry";

/** Open event streams on this process, and the cap past which it answers 503 (another replica may take them). */
export function registerLiveMetrics(live: Pick<LiveHub, "size" | "limits">): void {
  for (const name of ["quad_live_streams_open", "quad_live_streams_max"]) registry.removeSingleMetric(name);
  new Gauge({
    name: "quad_live_streams_open",
    help: "Event streams open on this process",
    registers: [registry],
    collect() {
      this.set(live.size());
    },
  });
  new Gauge({
    name: "quad_live_streams_max",
    help: "Event streams this process holds at most; past it, 503",
    registers: [registry],
    collect() {
      this.set(live.limits.perProcess);
    },
  });
}

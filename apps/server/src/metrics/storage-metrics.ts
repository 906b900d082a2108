import { statfs } from "node:fs/promises";
import type { FullStorage } from "@quad/db";
import { Gauge } from "prom-client";
import { storageFull, type Lifecycle } from "../modules/health/service";
import { registry } from "./registry";

const STORAGES: FullStorage[] = ["database", "data_dir"];

/**
 * Space, as this process sees it: whether its writes fail for want of it (on
 * Postgres' disk or under DATA_DIR, where photos and the embedded database
 * live), and how much is left under DATA_DIR, read at each scrape. A full
 * disk is an alert of its own, not a replica out of rotation.
 */
export function registerStorageMetrics(lifecycle: Lifecycle | undefined, now: () => Date, dataDir: string): void {
  for (const name of ["quad_storage_full", "quad_data_dir_free_bytes", "quad_data_dir_size_bytes"])
    registry.removeSingleMetric(name);
  new Gauge({
    name: "quad_storage_full",
    help: "1 when a write of this process failed for want of space in the last 30 s, by storage (database, data_dir)",
    labelNames: ["storage"],
    registers: [registry],
    collect() {
      for (const storage of STORAGES) this.set({ storage }, storageFull(lifecycle, now, storage) ? 1 : 0);
    },
  });
  // One statfs a scrape for both; NaN (unknown, and no alert's comparison holds) when it fails.
  let pending: ReturnType<typeof statfs> | undefined;
  const space = () =>
    (pending ??= statfs(dataDir).finally(() => {
      pending = undefined;
    }));
  const bytes = (name: string, help: string, read: (s: Awaited<ReturnType<typeof statfs>>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(await space().then(read, () => Number.NaN));
      },
    });
  bytes(
    "quad_data_dir_free_bytes",
    "Bytes free to this process on DATA_DIR's file system",
    (s) => Number(s.bavail) * Number(s.bsize),
  );
  bytes(
    "quad_data_dir_size_bytes",
    "Size in bytes of DATA_DIR's file system",
    (s) => Number(s.blocks) * Number(s.bsize),
  );
}

import type { PoolState } from "@quad/db";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { urlOfTestDatabase } from "../test/postgres";
import { freePort } from "../test/processes";
import { startServerProcess } from "../test/server-process";
import { poolMetrics } from "./pool-metrics";
import { registry } from "./registry";

/** One series' value in the registry's scrape (0 when absent). */
async function value(name: string): Promise<number> {
  const line = (await registry.metrics()).split("\n").find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

const scrape = () =>
  Promise.all(
    ["quad_db_pool_size", "quad_db_pool_in_use", "quad_db_pool_waiting", "quad_db_statements_waited_total"].map(value),
  );

const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();

describe("the database pool's metrics", () => {
  it("read the pool at each scrape, and count what waited since the process started", async () => {
    let state: PoolState = { size: 4, inUse: 4, waiting: 3, waited: 5 };
    poolMetrics(() => state);
    expect(await scrape()).toEqual([4, 4, 3, 5]);
    state = { size: 4, inUse: 1, waiting: 0, waited: 7 };
    expect(await scrape()).toEqual([4, 1, 0, 7]);
  });

  describe.skipIf(!serverUrl)("on Postgres", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(() => database?.close());

    it("reads a saturated pool while slow statements run, and an idle one after", async () => {
      poolMetrics(database.pool!);
      const [size, , , waitedBefore] = await scrape();
      const slow = () => database.db.execute(sql`select pg_sleep(0.5)`);
      const running = Promise.all(Array.from({ length: size! + 2 }, slow));
      await new Promise((r) => setTimeout(r, 250));
      expect((await scrape()).slice(1)).toEqual([size, 2, waitedBefore! + 2]);
      await running;
      expect((await scrape()).slice(1, 3)).toEqual([0, 0]);
    });

    it("counts a connection held by a transaction as in use between its statements", async () => {
      poolMetrics(database.pool!);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const transaction = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await held;
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(await value("quad_db_pool_in_use")).toBe(1);
      release();
      await transaction;
      expect(await value("quad_db_pool_in_use")).toBe(0);
    });

    it("are served on a running server's metrics port", async () => {
      const metricsPort = await freePort();
      const server = await startServerProcess(process.env, {
        DATABASE_URL: await urlOfTestDatabase(database.db, serverUrl!),
        DATABASE_POOL_SIZE: "3",
        METRICS_PORT: String(metricsPort),
      });
      try {
        const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
        expect(scraped).toMatch(/^quad_db_pool_size 3$/m);
        expect(scraped).toMatch(/^quad_db_pool_in_use \d+$/m);
        expect(scraped).toMatch(/^quad_db_statements_waited_total \d+$/m);
      } finally {
        await server.stop();
      }
    }, 120_000);
  });
});

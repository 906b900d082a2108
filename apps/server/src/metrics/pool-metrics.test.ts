import { observeStatements } from "@quad/db";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poolMetrics } from "./pool-metrics";
import { registry } from "./registry";

/** One series' value in the registry's scrape (0 when absent). */
async function value(name: string): Promise<number> {
  const line = (await registry.metrics()).split("\n").find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();

describe("the database pool's metrics", () => {
  it("count statements in flight against the pool's size, and those that had to wait", async () => {
    const observe = poolMetrics(2);
    const settle = ["a", "b", "c"].map((text) => observe({ text }));
    expect([
      await value("quad_db_pool_size"),
      await value("quad_db_pool_in_use"),
      await value("quad_db_pool_waiting"),
    ]).toEqual([2, 2, 1]);
    expect(await value("quad_db_statements_waited_total")).toBe(1);
    for (const done of settle) done?.();
    expect([await value("quad_db_pool_in_use"), await value("quad_db_pool_waiting")]).toEqual([0, 0]);
  });

  describe.skipIf(!serverUrl)("on Postgres", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(() => database?.close());

    it("reads a saturated pool while slow statements run, and an idle one after", async () => {
      const db = observeStatements(database.db, database.kind, poolMetrics(2));
      const running = Promise.all(Array.from({ length: 4 }, () => db.execute(sql`select pg_sleep(0.5)`)));
      await new Promise((r) => setTimeout(r, 200));
      expect([await value("quad_db_pool_in_use"), await value("quad_db_pool_waiting")]).toEqual([2, 2]);
      await running;
      expect([await value("quad_db_pool_in_use"), await value("quad_db_pool_waiting")]).toEqual([0, 0]);
      expect(await value("quad_db_statements_waited_total")).toBe(2);
    });
  });
});

import { tmpdir } from "node:os";
import path from "node:path";
import { queryRows, type DatabaseHandle } from "@quad/db";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./database";
import { parseConfig } from "./env";
import { createDiskStorage } from "./media/storage";
import { urlOfTestDatabase } from "./test/postgres";

const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();

describe.skipIf(!serverUrl)("DATABASE_POOL_SIZE on Postgres", () => {
  let test: TestDatabase;
  let opened: DatabaseHandle;

  beforeAll(async () => {
    test = await createTestDatabase();
    const url = await urlOfTestDatabase(test.db, serverUrl!);
    const config = parseConfig(
      { NODE_ENV: "test", DATABASE_URL: url, DATABASE_POOL_SIZE: "2", SEED_DEMO: "false" },
      "/tmp",
    );
    opened = await openDatabase(config, createDiskStorage(path.join(tmpdir(), "quad-pool-size-test")), () => {});
  });
  afterAll(async () => {
    await opened?.close();
    await test?.close();
  });

  it("opens at most that many connections, however many queries wait", async () => {
    const waits = Array.from({ length: 8 }, () =>
      queryRows<{ pid: number }>(opened.db, sql`select pg_backend_pid() as pid from pg_sleep(0.05)`),
    );
    const pids = new Set((await Promise.all(waits)).map(([row]) => row!.pid));
    expect(pids.size).toBe(2);
  });
});

import { count, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { schools } from "../schema/index";
import { queryRows } from "../sql";
import { createTestDatabase, insertTestSchool } from "./index";

describe("createTestDatabase", () => {
  it("gives each caller its own migrated, empty database", async () => {
    const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    try {
      expect(a.kind).toBe(process.env.TEST_DATABASE_URL || process.env.DATABASE_URL ? "postgres" : "pglite");
      await insertTestSchool(a.db);
      expect(await a.db.select({ n: count() }).from(schools)).toEqual([{ n: 1 }]);
      expect(await b.db.select({ n: count() }).from(schools)).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("drops a Postgres test database on close", async (ctx) => {
    const t = await createTestDatabase();
    if (t.kind !== "postgres") {
      await t.close();
      ctx.skip();
    }
    const [row] = await queryRows<{ name: string }>(t.db, sql`select current_database() as name`);
    await t.close();
    const admin = await createTestDatabase();
    try {
      const rows = await queryRows(admin.db, sql`select 1 from pg_database where datname = ${row!.name}`);
      expect(rows).toEqual([]);
    } finally {
      await admin.close();
    }
  });
});

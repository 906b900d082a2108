import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./client";
import { observeStatements } from "./observe";
import { schools } from "./schema/index";
import { preparedStatement, queryRows } from "./sql";
import { createTestDatabase, type TestDatabase } from "./testing/index";

describe("observeStatements", () => {
  let t: TestDatabase;
  let db: Database;
  const seen: { text: string; error?: string }[] = [];
  beforeAll(async () => {
    t = await createTestDatabase();
    db = observeStatements(t.db, t.kind, ({ text }) => {
      const entry: { text: string; error?: string } = { text };
      seen.push(entry);
      return (error) => {
        if (error) entry.error = (error as { code?: string }).code ?? "failed";
      };
    });
  });
  afterAll(() => t.close());

  const PHONE = "+15555550123";

  it("tells each statement as sent, with placeholders and never the values, and when it settled", async () => {
    seen.length = 0;
    await db.select({ id: schools.id }).from(schools).where(eq(schools.name, PHONE));
    const echo = preparedStatement<{ phone: string }>((p) => sql`select ${p.phone}::text as phone`);
    expect(await echo<{ phone: string }>(db, { phone: PHONE })).toEqual([{ phone: PHONE }]);
    expect(await queryRows<{ n: number }>(db, sql`select ${41}::int + 1 as n`)).toEqual([{ n: 42 }]);
    expect(seen.map((s) => s.text)).toEqual([
      expect.stringMatching(/^select "id" from "schools" where "schools"."name" = \$1$/),
      "select $1::text as phone",
      "select $1::int + 1 as n",
    ]);
    expect(JSON.stringify(seen)).not.toContain("5555550123");
    expect(seen.every((s) => s.error === undefined)).toBe(true);
  });

  it("tells the statements inside a transaction and a failed one with its error", async () => {
    seen.length = 0;
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await tx.transaction(async (inner) => inner.execute(sql`select 2`));
    });
    await expect(db.execute(sql`select * from no_such_table`)).rejects.toThrow();
    const texts = seen.map((s) => s.text);
    expect(texts).toContain("select 1");
    expect(texts).toContain("select 2");
    expect(seen.at(-1)).toEqual({ text: "select * from no_such_table", error: "42P01" });
  });

  it("leaves the database it was given unobserved", async () => {
    seen.length = 0;
    await t.db.execute(sql`select 1`);
    expect(seen).toEqual([]);
  });
});

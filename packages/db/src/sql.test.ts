import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preparedStatement } from "./sql";
import { createTestDatabase, type TestDatabase } from "./testing/index";

describe("preparedStatement", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.close());

  it("runs with each call's values, building the SQL text once on postgres.js", async () => {
    let builds = 0;
    const echo = preparedStatement<{ word: string; n: number; at: string | null }>((p) => {
      builds += 1;
      return sql`select ${p.word}::text as word, ${p.n}::int + 1 as next, ${p.at}::timestamptz is null as "noTime", ${"constant"}::text as fixed`;
    });
    const runs = [
      { word: "one", n: 1, at: null },
      { word: "two", n: 41, at: "2026-11-23T00:00:00.000Z" },
      { word: "it's; drop table users --", n: -1, at: null },
    ];
    for (const values of runs) {
      const rows = await echo<{ word: string; next: number; noTime: boolean; fixed: string }>(t.db, values);
      expect(rows).toEqual([{ word: values.word, next: values.n + 1, noTime: values.at === null, fixed: "constant" }]);
    }
    // postgres.js: built once with placeholders. PGlite: built with each call's values.
    expect(builds).toBe(t.kind === "postgres" ? 1 : runs.length);
  });

  it("refuses a run missing a value instead of sending null", async () => {
    const one = preparedStatement<{ a: number; b: number }>((p) => sql`select ${p.a}::int + ${p.b}::int as sum`);
    expect(await one<{ sum: number }>(t.db, { a: 1, b: 2 })).toEqual([{ sum: 3 }]);
    if (t.kind === "postgres") {
      await expect(one(t.db, { a: 1 } as { a: number; b: number })).rejects.toThrow(/placeholder "b"/);
    }
  });
});

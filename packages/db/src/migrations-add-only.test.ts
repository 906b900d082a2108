import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * A release's migrations run while the previous release still serves (one
 * replica at a time), and rolling back means starting the previous release on
 * the migrated database: so a migration only adds. Removing or reshaping goes
 * in two releases, the second a migration named `…contract…` that drops what
 * the release before it stopped using (docs/operations.md "Release and rollback").
 * Migrations up to 0016 came before this rule.
 */
const LAST_BEFORE_THE_RULE = 16;
const FOLDER = new URL("../drizzle/", import.meta.url);

/** A new column the previous release's inserts would leave empty, and Postgres refuse. */
const requiredColumnWithoutDefault = (sql: string) =>
  (sql.match(/\badd\s+column\b[^;,]*/gi) ?? []).some(
    (clause) => /\bnot\s+null\b/i.test(clause) && !/\b(default|generated)\b/i.test(clause),
  );

/** What the previous release could trip on, by what it does to it. */
const BREAKING: readonly [(sql: string) => boolean, string][] = [
  [
    (sql) => /\bdrop\s+(table|column|view|type|schema|function)\b/i.test(sql),
    "drops something the previous release may use",
  ],
  [(sql) => /\brename\b/i.test(sql), "renames something the previous release uses by its old name"],
  [
    (sql) => /\balter\s+column\s+"?\w+"?\s+(set\s+data\s+)?type\b/i.test(sql),
    "changes a column's type under the previous release",
  ],
  [(sql) => /\bset\s+not\s+null\b/i.test(sql), "makes a column required that the previous release may leave empty"],
  [requiredColumnWithoutDefault, "adds a required column without a default"],
];

const migrations = readdirSync(FOLDER)
  .filter((file) => /^\d{4}_.*\.sql$/.test(file))
  .map((file) => ({ file, number: Number(file.slice(0, 4)), sql: readFileSync(new URL(file, FOLDER), "utf8") }));

describe("migrations only add", () => {
  it("finds the migrations", () => {
    expect(migrations.length).toBeGreaterThan(LAST_BEFORE_THE_RULE);
  });

  it.each(migrations.filter((m) => m.number > LAST_BEFORE_THE_RULE && !m.file.includes("contract")))(
    "$file",
    ({ sql }) => {
      const found = BREAKING.filter(([breaks]) => breaks(sql)).map(([, why]) => why);
      expect(
        found,
        "make it an expand step, or name it …contract… one release after the code stopped using it",
      ).toEqual([]);
    },
  );

  it("would catch each breaking change", () => {
    const samples = [
      'ALTER TABLE "users" DROP COLUMN "teaser_key";',
      'ALTER TABLE "votes" RENAME COLUMN "a" TO "b";',
      'ALTER TABLE "votes" ALTER COLUMN "status" SET DATA TYPE text;',
      'ALTER TABLE "votes" ALTER COLUMN "status" SET NOT NULL;',
      'ALTER TABLE "votes" ADD COLUMN "hour" timestamp NOT NULL;',
    ];
    for (const sql of samples)
      expect(
        BREAKING.some(([breaks]) => breaks(sql)),
        sql,
      ).toBe(true);
    for (const sql of [
      'ALTER TABLE "votes" ADD COLUMN "hour" timestamp DEFAULT now() NOT NULL;',
      'ALTER TABLE "votes" ADD COLUMN "note" text;',
      'CREATE INDEX "votes_hour_idx" ON "votes" ("hour");',
    ]) {
      expect(
        BREAKING.some(([breaks]) => breaks(sql)),
        sql,
      ).toBe(false);
    }
  });
});

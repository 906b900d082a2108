import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MIGRATIONS_FOLDER, migrate } from "./migrate";
import { queryRows } from "./sql";
import { createTestDatabase, type TestDatabase } from "./testing/index";

const TABLES = [
  "admin_audit_log",
  "auth_codes",
  "auth_sessions",
  "blocks",
  "consents",
  "flash_sale_offers",
  "job_runs",
  "payment_fulfilments",
  "prompts",
  "purchases",
  "push_deliveries",
  "push_notices",
  "push_subscriptions",
  "reports",
  "rounds",
  "schools",
  "session_revocations",
  "sms_outbox",
  "unlocks",
  "users",
  "voter_state",
  "votes",
];

describe("migrations", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.close());

  it("create every table", async () => {
    const rows = await queryRows<{ table_name: string }>(
      t.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(rows.map((r) => r.table_name)).toEqual(TABLES);
  });

  it("are recorded, so running again applies nothing", async () => {
    expect(await migrate(t.db)).toEqual({ applied: 0 });
    expect(await migrate(t.db, { migrationsFolder: new URL("../drizzle/", import.meta.url) })).toEqual({ applied: 0 });
    expect(await migrate(t.db, { migrationsFolder: DEFAULT_MIGRATIONS_FOLDER })).toEqual({ applied: 0 });
    const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(row?.n).toBeGreaterThan(0);
  });

  it("resolve the default folder next to src, as bundles copy it next to dist/bin", () => {
    expect(DEFAULT_MIGRATIONS_FOLDER.replace(/\\/g, "/")).toMatch(/packages\/db\/drizzle\/$/);
  });
});

import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "./client";
import { DEFAULT_MIGRATIONS_FOLDER, migrate } from "./migrate";
import { queryRows } from "./sql";
import { createTestDatabase, type TestDatabase } from "./testing/index";

const TABLES = [
  "admin_audit_log",
  "auth_codes",
  "auth_sessions",
  "blocks",
  "consents",
  "email_outbox",
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
  "school_email_codes",
  "school_email_domains",
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

describe("the school membership migration", () => {
  it("makes demo students (fictional +1 555 phones) members and asks everyone else to prove a school address", async () => {
    // A database as the previous release left it: migrated up to the one before, with a demo and a real student.
    const before = await mkdtemp(path.join(tmpdir(), "quad-migrations-"));
    try {
      await cp(DEFAULT_MIGRATIONS_FOLDER, before, { recursive: true });
      const journalFile = path.join(before, "meta", "_journal.json");
      const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: { tag: string }[] };
      const at = journal.entries.findIndex((entry) => entry.tag === "0007_school_email_membership");
      expect(at).toBeGreaterThan(0);
      await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
      const old = await createDatabase({ dataDir: path.join(before, "pglite") });
      try {
        await migrate(old.db, { migrationsFolder: before });
        await old.db.execute(sql`
          insert into schools (name, short_name, domain, city, state, time_zone, icon)
          values ('Old U', 'OU', 'Old.edu', 'Town', 'CA', 'America/Los_Angeles', 'data:,')`);
        await old.db.execute(sql`
          insert into users (phone, first_name, school_id, graduation_year, gender, instagram_handle, photo_key, is_verified)
          select p, 'S', (select id from schools where name = 'Old U'), 2027, 'female', '@s', 'k', true
          from unnest(array['+15555550001', '+12025550101']) p`);

        expect(await migrate(old.db)).toEqual({ applied: journal.entries.length - at });
        const rows = await queryRows<{ phone: string; domain: string | null; member: boolean; email: string | null }>(
          old.db,
          sql`select phone, school_email_domain as domain, school_verified_at is not null as member, school_email as email from users order by phone`,
        );
        expect(rows).toEqual([
          { phone: "+12025550101", domain: null, member: false, email: null },
          { phone: "+15555550001", domain: "old.edu", member: true, email: null },
        ]);
        const domains = await queryRows<{ domain: string }>(old.db, sql`select domain from school_email_domains`);
        expect(domains).toEqual([{ domain: "old.edu" }]);
      } finally {
        await old.close();
      }
    } finally {
      await rm(before, { recursive: true, force: true });
    }
  });
});

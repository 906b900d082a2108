import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "./client";
import { DEFAULT_MIGRATIONS_FOLDER, migrate, migrationCheck } from "./migrate";
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
  "kept_urgent_reports",
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
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    expect(row?.n).toBeGreaterThan(0);
  });

  it("resolve the default folder next to src, as bundles copy it next to dist/bin", () => {
    expect(DEFAULT_MIGRATIONS_FOLDER.replace(/\\/g, "/")).toMatch(/packages\/db\/drizzle\/$/);
  });
});

/**
 * A database as a previous release left it: migrated up to (not including) `tag`, with `seed` run
 * on it; then `check` runs after the remaining migrations, which the call expects to apply.
 */
async function acrossMigration(
  tag: string,
  seed: (db: Database) => Promise<void>,
  check: (db: Database) => Promise<void>,
): Promise<void> {
  const before = await mkdtemp(path.join(tmpdir(), "quad-migrations-"));
  try {
    await cp(DEFAULT_MIGRATIONS_FOLDER, before, { recursive: true });
    const journalFile = path.join(before, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((entry) => entry.tag === tag);
    expect(at).toBeGreaterThan(0);
    await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    const old = await createDatabase({ dataDir: path.join(before, "pglite") });
    try {
      await migrate(old.db, { migrationsFolder: before });
      await seed(old.db);
      expect(await migrate(old.db)).toEqual({ applied: journal.entries.length - at });
      await check(old.db);
    } finally {
      await old.close();
    }
  } finally {
    await rm(before, { recursive: true, force: true });
  }
}

describe("the readiness check of migrations", () => {
  it("is false on an empty database and one a migration behind, true once every migration is applied", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "quad-migration-check-"));
    const empty = await createDatabase({ dataDir: path.join(dir, "pglite") });
    try {
      expect(await migrationCheck()(empty.db)).toBe(false);
    } finally {
      await empty.close();
      await rm(dir, { recursive: true, force: true });
    }
    await acrossMigration(
      "0015_reports_outlive_their_reporter",
      async (db) => expect(await migrationCheck()(db)).toBe(false),
      async (db) => expect(await migrationCheck()(db)).toBe(true),
    );
  });
});

const oldSchool = sql`
  insert into schools (name, short_name, domain, city, state, time_zone, icon)
  values ('Old U', 'OU', 'Old.edu', 'Town', 'CA', 'America/Los_Angeles', 'data:,')`;

describe("the school membership migration", () => {
  it("makes demo students (fictional +1 555 phones) members and asks everyone else to prove a school address", async () => {
    await acrossMigration(
      "0007_school_email_membership",
      async (db) => {
        await db.execute(oldSchool);
        await db.execute(sql`
          insert into users (phone, first_name, school_id, graduation_year, gender, instagram_handle, photo_key, is_verified)
          select p, 'S', (select id from schools where name = 'Old U'), 2027, 'female', '@s', 'k', true
          from unnest(array['+15555550001', '+12025550101']) p`);
      },
      async (db) => {
        const rows = await queryRows<{ phone: string; domain: string | null; member: boolean; email: string | null }>(
          db,
          sql`select phone, school_email_domain as domain, school_verified_at is not null as member, school_email as email from users order by phone`,
        );
        expect(rows).toEqual([
          { phone: "+12025550101", domain: null, member: false, email: null },
          { phone: "+15555550001", domain: "old.edu", member: true, email: null },
        ]);
        const domains = await queryRows<{ domain: string }>(db, sql`select domain from school_email_domains`);
        expect(domains).toEqual([{ domain: "old.edu" }]);
      },
    );
  });
});

describe("the open round migration", () => {
  it("moves each voter's open round and recent rounds onto voter_state and keeps the ended rounds", async () => {
    await acrossMigration(
      "0010_open_round_on_voter_state",
      async (db) => {
        await db.execute(oldSchool);
        await db.execute(sql`insert into prompts (text) values ('First'), ('Second')`);
        await db.execute(sql`
          insert into users (phone, first_name, school_id, graduation_year, gender, instagram_handle, photo_key, is_verified)
          select '+1202555010' || n, 'S' || n, (select id from schools where name = 'Old U'), 2027, 'female', '@s' || n, 'k', true
          from generate_series(1, 5) n`);
        const id = (n: number) => sql.raw(`(select id from users where first_name = 'S${n}')`);
        const prompt = (text: string) => sql.raw(`(select id from prompts where text = '${text}')`);
        // S1 voted in a round showing S2 and S3, then was shown S4 and S5 (still open); S2 only skipped one.
        await db.execute(sql`
          insert into rounds (voter_id, prompt_id, candidate_a_id, candidate_b_id, status, created_at, closed_at) values
            (${id(1)}, ${prompt("First")}, ${id(2)}, ${id(3)}, 'voted', '2026-01-01T10:00:00Z', '2026-01-01T10:01:00Z'),
            (${id(1)}, ${prompt("Second")}, ${id(4)}, ${id(5)}, 'open', '2026-01-01T11:00:00Z', null),
            (${id(2)}, ${prompt("First")}, ${id(1)}, ${id(3)}, 'skipped', '2026-01-01T09:00:00Z', '2026-01-01T09:00:05Z')`);
        await db.execute(sql`
          insert into votes (round_id, voter_id, recipient_id, prompt_id)
          select id, voter_id, candidate_a_id, prompt_id from rounds where status = 'voted'`);
        await db.execute(sql`insert into voter_state (user_id, votes_in_batch) values (${id(1)}, 1)`);
      },
      async (db) => {
        const states = await queryRows<{
          who: string;
          votes: number;
          open: boolean;
          shown: string[];
          recentPrompts: string[];
          recent: string[];
        }>(
          db,
          sql`select u.first_name as who, s.votes_in_batch as votes, s.round_open as open,
                     array[a.first_name, b.first_name] as shown,
                     array(select text from unnest(s.recent_prompt_ids) with ordinality r(id, n) join prompts p on p.id = r.id order by n) as "recentPrompts",
                     array(select first_name from unnest(s.recent_candidate_ids) with ordinality r(id, n) join users c on c.id = r.id order by n) as recent
              from voter_state s join users u on u.id = s.user_id
              left join users a on a.id = s.round_candidate_a_id left join users b on b.id = s.round_candidate_b_id
              order by u.first_name`,
        );
        expect(states).toEqual([
          {
            who: "S1",
            votes: 1,
            open: true,
            shown: ["S4", "S5"],
            recentPrompts: ["Second", "First"],
            recent: ["S4", "S5", "S2", "S3"],
          },
          { who: "S2", votes: 0, open: false, shown: [null, null], recentPrompts: ["First"], recent: ["S1", "S3"] },
        ]);
        const ended = await queryRows<{ status: string }>(db, sql`select status::text from rounds order by created_at`);
        expect(ended.map((r) => r.status)).toEqual(["skipped", "voted"]);
        const columns = await queryRows<{ name: string }>(
          db,
          sql`select column_name as name from information_schema.columns where table_name = 'votes' and column_name in ('round_id', 'shown_with_id')`,
        );
        expect(columns).toEqual([{ name: "shown_with_id" }]);
      },
    );
  });
});

describe("the one-mailbox migration", () => {
  it("keeps the first proof of each mailbox, clears proofs by unlisted subdomains and alumni domains, and names each mailbox", async () => {
    await acrossMigration(
      "0012_one_mailbox_one_account",
      async (db) => {
        await db.execute(oldSchool);
        await db.execute(sql`
          insert into school_email_domains (domain, school_id)
          select d, (select id from schools where name = 'Old U') from unnest(array['old.edu', 'oldu.edu', 'cs.old.edu', 'alumni.old.edu']) d
          on conflict do nothing`);
        // (phone, address, the domain its proof matched, when)
        const proofs: [string, string, string, string][] = [
          ["+12025550101", "jo@old.edu", "old.edu", "2026-01-02"],
          ["+12025550102", "jo@oldu.edu", "oldu.edu", "2026-01-01"],
          ["+12025550103", "jo@cs.old.edu", "cs.old.edu", "2026-01-03"],
          ["+12025550104", "al@x.old.edu", "old.edu", "2026-01-01"],
          ["+12025550105", "al@alumni.old.edu", "alumni.old.edu", "2026-01-01"],
          ["+12025550106", "ann@oldu.edu", "oldu.edu", "2026-01-01"],
        ];
        for (const [phone, email, domain, at] of proofs)
          await db.execute(sql`
            insert into users (phone, school_id, school_email, school_email_domain, school_verified_at)
            values (${phone}, (select id from schools where name = 'Old U'), ${email}, ${domain}, ${at}::timestamptz)`);
      },
      async (db) => {
        const rows = await queryRows<{
          phone: string;
          email: string | null;
          canonical: string | null;
          member: boolean;
        }>(
          db,
          sql`select phone, school_email as email, school_email_canonical as canonical, school_verified_at is not null as member
              from users order by phone`,
        );
        expect(rows).toEqual([
          { phone: "+12025550101", email: null, canonical: null, member: false },
          { phone: "+12025550102", email: "jo@oldu.edu", canonical: "jo@old.edu", member: true },
          { phone: "+12025550103", email: null, canonical: null, member: false },
          { phone: "+12025550104", email: null, canonical: null, member: false },
          { phone: "+12025550105", email: null, canonical: null, member: false },
          { phone: "+12025550106", email: "ann@oldu.edu", canonical: "ann@old.edu", member: true },
        ]);
        await expect(
          db.execute(sql`update users set school_email = 'jo@old.edu', school_email_domain = 'old.edu',
            school_verified_at = now(), school_email_canonical = 'jo@old.edu' where phone = '+12025550101'`),
        ).rejects.toThrow();
      },
    );
  });
});

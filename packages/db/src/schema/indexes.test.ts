import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedReferenceData } from "../seed/index";
import { queryRows } from "../sql";
import { DELIVERY_HOUR } from "./voting";
import { createTestDatabase, type TestDatabase } from "../testing/index";

/**
 * The planner is asked about realistic data (many schools, many recipients,
 * fresh statistics), not forced with enable_seqscan = off: a plan that only
 * uses the index when told to would be no proof.
 */
const SCHOOL_COUNT = 25;
const STUDENTS = 4000;
const VOTES_PER_STUDENT = 6;

describe("hot queries use their indexes", () => {
  let t: TestDatabase;
  let schoolId: number;
  let recipientId: string;

  const plan = async (query: SQL) =>
    (await queryRows<Record<string, string>>(t.db, sql`explain ${query}`)).map((r) => Object.values(r)[0]).join("\n");

  beforeAll(async () => {
    t = await createTestDatabase();
    await seedReferenceData(t.db);
    await t.db.execute(sql`
      insert into users (phone, first_name, school_id, graduation_year, gender, instagram_handle, photo_key,
                         is_verified, boost_ends_at, paused_at, school_email_domain, school_verified_at)
      select '+1555' || lpad(g::text, 7, '0'), 'Student ' || g,
             (array(select id from schools order by id))[1 + g % ${SCHOOL_COUNT}],
             2025 + g % 5, (case when g % 2 = 0 then 'female' else 'male' end)::gender, '@s' || g, 'k',
             g % 10 <> 0,
             case when g % 17 = 0 then now() + interval '1 day' end,
             case when g % 23 = 0 then now() end,
             case when g % 13 <> 0 then d.domain end, case when g % 13 <> 0 then now() end
      from generate_series(0, ${STUDENTS - 1}) g
      cross join lateral (select domain from school_email_domains
        where school_id = (array(select id from schools order by id))[1 + g % ${SCHOOL_COUNT}] limit 1) d`);
    await t.db.execute(sql`
      insert into votes (recipient_id, prompt_id, created_at, delivered_at)
      select u.id, (select min(id) from prompts), at, at
      from users u cross join generate_series(1, ${VOTES_PER_STUDENT}) g
      cross join lateral (select now() - (g * 7 + length(u.phone)) * interval '1 minute' as at) a`);
    // Statistics for the planner, and the visibility map for index-only scans.
    await t.db.execute(sql`vacuum analyze users`);
    await t.db.execute(sql`vacuum analyze votes`);
    const [row] = await queryRows<{ school_id: number; id: string }>(
      t.db,
      sql`select school_id, id from users where is_verified order by phone limit 1`,
    );
    schoolId = row!.school_id;
    recipientId = row!.id;
  });
  afterAll(() => t?.close());

  it("candidates by school and gender (random-start keyset draw)", async () => {
    const text = await plan(sql`
      select id, boost_ends_at from users
      where school_id = ${schoolId} and gender = 'female' and is_verified and school_verified_at is not null and paused_at is null
        and id >= ${"80000000-0000-4000-8000-000000000000"}::uuid
      order by id limit 40`);
    expect(text).toContain("users_candidates_idx");
    expect(text).not.toMatch(/Seq Scan|Sort/);
  });

  it("the votes whose delivery moment came since the live hub's last tick, by their own index", async () => {
    const until = new Date();
    const text = await plan(sql`
      select id, recipient_id from votes
      where delivered_at > ${new Date(until.getTime() - 250).toISOString()}::timestamptz
        and delivered_at <= ${until.toISOString()}::timestamptz`);
    expect(text).toContain("votes_delivered_idx");
    expect(text).not.toContain("Seq Scan");
  });

  it("boosted candidates only, from the same index", async () => {
    const text = await plan(sql`
      select id from users
      where school_id = ${schoolId} and gender = 'male' and is_verified and school_verified_at is not null and paused_at is null
        and boost_ends_at is not null and boost_ends_at > now()`);
    expect(text).toContain("users_candidates_idx");
    expect(text).not.toContain("Seq Scan");
  });

  it("received votes delivered by now, newest delivery hour first, keyset paged, keys from the index alone", async () => {
    const now = sql`${new Date().toISOString()}::timestamptz`;
    const first = await plan(sql`
      select id, ${DELIVERY_HOUR} as hour, delivered_at from votes where recipient_id = ${recipientId}
        and delivered_at <= ${now}
      order by ${DELIVERY_HOUR} desc, id desc limit 11`);
    expect(first).toContain("Index Only Scan Backward using votes_recipient_delivery_idx");
    expect(first).not.toMatch(/Seq Scan|Sort/);

    const next = await plan(sql`
      select id, ${DELIVERY_HOUR} as hour, delivered_at from votes
      where recipient_id = ${recipientId} and delivered_at <= ${now}
        and (${DELIVERY_HOUR}, id) < (${"2026-11-27T14:00:00.000Z"}::timestamptz at time zone 'UTC', ${"ffffffff-ffff-4fff-bfff-ffffffffffff"}::uuid)
      order by ${DELIVERY_HOUR} desc, id desc limit 11`);
    expect(next).toContain("Index Only Scan Backward using votes_recipient_delivery_idx");
    expect(next).not.toMatch(/Seq Scan|Sort/);
  });
});

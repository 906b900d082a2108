import * as schema from "@quad/db/schema";
import { seedReferenceData } from "@quad/db/seed";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSession } from "../modules/auth/sessions";
import { createTestAppOn, type TestApp } from "../test/app";
import { urlOfTestDatabase } from "../test/postgres";

/**
 * docs/performance.md: every query the hot paths send is EXPLAINed on Postgres against a
 * realistically sized dataset (many schools, tens of thousands of students,
 * votes and rounds, fresh statistics), and none may scan users, votes or
 * rounds sequentially. The queries are not copies: the app runs the real
 * requests on a database whose driver records each statement it sends.
 * On PGlite the plans say nothing about production, so the test is skipped.
 */
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
const STUDENTS = 20_000;
const SPREAD_VOTES = 100_000;
const DEEP_VOTES = 3_000;
const ROUNDS = 40_000;
const SEQ_SCAN = /Seq Scan on (users|votes|rounds|voter_state)\b/;

interface Statement {
  query: string;
  params: unknown[];
}

describe.skipIf(!serverUrl)(
  serverUrl
    ? "hot queries on Postgres: no sequential scan of users, votes or rounds"
    : "hot queries EXPLAIN (skipped: needs DATABASE_URL — PGlite plans prove nothing about Postgres)",
  () => {
    let database: TestDatabase;
    let client: postgres.Sql;
    let t: TestApp;
    const recorded: Statement[] = [];
    let recording = false;

    beforeAll(async () => {
      database = await createTestDatabase();
      await seedReferenceData(database.db);
      // Recorded by the driver, so statements sent past Drizzle (prepared ones) are seen too.
      client = postgres(await urlOfTestDatabase(database.db, serverUrl!), {
        max: 5,
        onnotice: () => {},
        // A copy: postgres.js serialises the parameters in place once it sends them.
        debug: (_connection, query, params) => void (recording && recorded.push({ query, params: [...params] })),
      });
      const db = drizzle(client, { schema });
      await seedCampuses(client);

      t = await createTestAppOn(db, "postgres");
      const { app } = t;
      const { now, config } = t.deps;

      // The hot paths, as a voter and as a popular recipient.
      const session = (phone: string) => startSession({ db, now, secret: config.JWT_SECRET! }, phone);
      const [voter] = await client<{ phone: string }[]>`
        select phone from users where is_verified and school_verified_at is not null and paused_at is null and school_id is not null order by phone offset 101 limit 1`;
      const voterHeaders = { authorization: `Bearer ${(await session(voter!.phone)).token}` };
      const recipientHeaders = { authorization: `Bearer ${(await session(deepPhone)).token}` };
      recording = true;
      const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
        const { statusCode, body } = await res;
        expect(statusCode, body).toBe(200);
        return JSON.parse(body) as Record<string, unknown>;
      };
      const round = (await ok(app.inject({ method: "GET", url: "/api/prompts/random", headers: voterHeaders }))) as {
        prompt: { id: number };
        users: { id: string }[];
      };
      await ok(app.inject({ method: "GET", url: "/api/prompts/random", headers: voterHeaders }));
      await ok(
        app.inject({
          method: "POST",
          url: "/api/votes/store",
          headers: voterHeaders,
          payload: { userId: round.users[0]!.id, promptId: round.prompt.id },
        }),
      );
      await ok(app.inject({ method: "GET", url: "/api/prompts/random?skip=true", headers: voterHeaders }));
      await ok(app.inject({ method: "GET", url: "/api/prompts/random?skip=true", headers: voterHeaders }));
      await ok(app.inject({ method: "GET", url: "/api/users/me", headers: voterHeaders }));
      const first = (await ok(
        app.inject({ method: "GET", url: "/api/votes/for-user?page=1&limit=10", headers: recipientHeaders }),
      )) as {
        votes: { id: string }[];
        nextCursor: string;
      };
      await ok(app.inject({ method: "GET", url: `/api/votes/for-user?page=50&limit=10`, headers: recipientHeaders }));
      await ok(
        app.inject({
          method: "GET",
          url: `/api/votes/for-user?cursor=${first.nextCursor}&limit=10`,
          headers: recipientHeaders,
        }),
      );
      await ok(
        app.inject({
          method: "POST",
          url: "/api/unlocks/unlock-user",
          headers: recipientHeaders,
          payload: { userId: first.votes[0]!.id },
        }),
      );
      await ok(
        app.inject({ method: "GET", url: "/api/prompts/unauthenticated?gender=female", remoteAddress: "10.9.9.9" }),
      );
      recording = false;
    }, 300_000);

    afterAll(async () => {
      await t?.close();
      await client?.end({ timeout: 5 });
      await database?.close();
    });

    const plans = async () => {
      const seen = new Map<string, string>();
      for (const { query, params } of recorded) {
        if (seen.has(query) || !/^\s*(select|update|delete|with)\b/i.test(query)) continue;
        const rows = await client.unsafe(`explain ${query}`, params as postgres.ParameterOrJSON<never>[]);
        seen.set(query, rows.map((row) => Object.values(row)[0]).join("\n"));
      }
      return seen;
    };

    it("covers every hot query: candidate pool, round state, round opening, vote, skip, received votes by page and cursor, unlock, user by phone", async () => {
      const text = recorded.map((s) => s.query).join("\n");
      const expected: Record<string, RegExp> = {
        "candidate pool load": /string_agg\(.*from users u\s+where u\.school_id = \$1 and u\.gender = \$2::gender/s,
        "round state (voter, allowance, open and recent rounds, blocks)":
          /from users u\s+left join voter_state s on s\.user_id = u\.id\s+left join prompts p on s\.round_open/,
        "round opening":
          /with eligible as \(.*insert into voter_state as s .*on conflict \(user_id\) do update set.*where not s\.round_open/s,
        vote: /with voter as \(.*update voter_state s set\s+round_open = false.*insert into votes/s,
        skip: /update voter_state set round_open = false, skips_in_row = skips_in_row \+ 1.*insert into rounds/s,
        "received votes page":
          /from votes\s+where recipient_id = me\.id and delivered_at <= \$\d+::timestamptz\s+order by date_trunc\('hour', \(delivered_at at time zone 'UTC'\)\) desc, id desc\s+limit \$\d+ offset/,
        "received votes cursor":
          /where recipient_id = me\.id and delivered_at <= \$\d+::timestamptz and \(date_trunc\('hour', \(delivered_at at time zone 'UTC'\)\), id\) < \(/,
        "unlock's vote lookup":
          /from "votes" inner join "prompts".*"votes"\."id" = \$1 and "votes"\."recipient_id" = \$2/s,
        "user by phone": /from "users" where "users"\."phone" = \$1/,
      };
      for (const [name, pattern] of Object.entries(expected)) expect(text, name).toMatch(pattern);
    });

    it("reads a page by cursor with the (hour, id) row comparison as an index condition, not a filter", async () => {
      const cursorPlans = [...(await plans())].filter(([query]) => /\(date_trunc\([^\n]*, id\) < \(/.test(query));
      expect(cursorPlans).toHaveLength(1);
      expect(cursorPlans[0]![1]).toMatch(
        /Index (Only )?Scan (Backward )?using votes_recipient_delivery_idx[^\n]*\n\s+Index Cond: \(\(recipient_id = [^\n]*ROW\(\(date_trunc\([^\n]*, id\) </,
      );
    });

    it("plans none of them with a sequential scan of users, votes, rounds or voter_state", async () => {
      const scanned = [...(await plans())].filter(([, plan]) => SEQ_SCAN.test(plan));
      expect(scanned.map(([query, plan]) => `${query}\n${plan}`)).toEqual([]);
    });
  },
);

const deepPhone = "+15560000000";

/**
 * 20,000 students over every seeded school (so one school is a few percent
 * of the table, as in production), 100,000 received votes plus 3,000 for one
 * student, 40,000 past rounds, allowances, unlocks and blocks; then fresh
 * statistics and visibility maps, as autovacuum would leave them.
 */
async function seedCampuses(sql: postgres.Sql) {
  await sql`
    insert into users (phone, first_name, school_id, graduation_year, gender, preference, instagram_handle, photo_key,
                       is_verified, remaining_unlocks, boost_ends_at, paused_at, show_in_preview)
    select '+1556' || lpad(g::text, 7, '0'), 'Student ' || g,
           (array(select id from schools order by id))[1 + g % (select count(*) from schools)::int],
           2025 + g % 5, (case when g % 2 = 0 then 'female' else 'male' end)::gender,
           (case when g % 2 = 0 then 'male' else 'female' end)::gender, '@s' || g, 'p/' || g,
           g = 0 or g % 10 <> 0, 5,
           case when g % 17 = 0 then now() + interval '1 day' end,
           case when g % 23 = 0 and g > 0 then now() end,
           g % 7 = 0
    from generate_series(0, ${STUDENTS - 1}) g`;
  // Most have proved their school address (members); a few have not.
  await sql`
    update users u set school_email_domain = d.domain, school_verified_at = now()
    from schools s join school_email_domains d on d.school_id = s.id and d.domain = lower(s.domain)
    where u.school_id = s.id and u.phone like '+1556%' and substr(u.phone, 6)::int % 31 <> 30`;
  await sql`create temp table ids as select substr(phone, 6)::int as n, id from users where phone like '+1556%'`;
  await sql`create unique index on ids (n)`;
  await sql`analyze ids`;
  const votes = (count: number, recipient: string) =>
    sql.unsafe(`
      insert into votes (voter_id, recipient_id, prompt_id, created_at, delivered_at)
      select v.id, r.id, (select min(id) from prompts), s.at, s.at
      from (select rn, (rn + 1 + floor(random() * ${STUDENTS - 1})::int) % ${STUDENTS} as vn,
                   now() - random() * interval '60 days' as at
            from (select ${recipient} as rn from generate_series(1, ${count})) picked) s
      join ids r on r.n = s.rn join ids v on v.n = s.vn`);
  await votes(DEEP_VOTES, "0");
  await votes(SPREAD_VOTES, `floor(random() * ${STUDENTS})::int`);
  await sql.unsafe(`
    insert into rounds (voter_id, prompt_id, candidate_a_id, candidate_b_id, status, created_at, closed_at)
    select v.id, (select min(id) from prompts), a.id, b.id, 'voted', t, t
    from (select floor(random() * ${STUDENTS})::int as vn, now() - random() * interval '30 days' as t
          from generate_series(1, ${ROUNDS})) s
    join ids v on v.n = s.vn join ids a on a.n = (s.vn + 1) % ${STUDENTS} join ids b on b.n = (s.vn + 2) % ${STUDENTS}`);
  await sql`insert into voter_state (user_id, votes_in_batch) select id, n % 12 from ids where n % 2 = 0 and n > 0`;
  await sql`insert into unlocks (owner_id, voter_id) select o.id, v.id from ids o join ids v on v.n = (o.n + 5) % ${STUDENTS} where o.n % 3 = 0`;
  await sql`insert into blocks (blocker_id, blocked_id) select o.id, v.id from ids o join ids v on v.n = (o.n + 9) % ${STUDENTS} where o.n % 11 = 0`;
  for (const table of ["users", "votes", "rounds", "voter_state", "unlocks", "blocks"])
    await sql.unsafe(`vacuum analyze ${table}`);
}

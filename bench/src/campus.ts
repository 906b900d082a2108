import { createDatabase, migrate } from "@quad/db";
import { seedReferenceData } from "@quad/db/seed";
import postgres from "postgres";

/**
 * The bench's data: one campus per database, built in SQL (INSERT … SELECT
 * generate_series) inside one transaction, so a campus is either whole or
 * absent, and reused by the next run. The school row is the marker.
 */
export interface CampusSpec {
  /** Database name on the bench Postgres server. */
  database: string;
  students: number;
  /** Received votes spread over the campus (skewed: some students are popular). */
  spreadVotes: number;
  /** Votes for one student, for the deep-page measurement. */
  deepVotes: number;
}

export interface Campus {
  spec: CampusSpec;
  url: string;
  schoolId: number;
  /** The student with `deepVotes` received votes. */
  deepPhone: string;
  totalVotes: number;
  seededInMs: number | null;
}

export const BIG_CAMPUS: CampusSpec = {
  database: "quad_bench",
  students: 50_000,
  spreadVotes: 980_000,
  deepVotes: 20_000,
};
export const SMALL_CAMPUS: CampusSpec = {
  database: "quad_bench_500",
  students: 500,
  spreadVotes: 10_000,
  deepVotes: 20_000,
};

const schoolName = (spec: CampusSpec) => `Quad Bench University (${spec.students.toLocaleString("en-US")} students)`;
/** +1 556 xxx xxxx: outside the demo and load-test ranges (+1 555 …). Student 0 is the deep one. */
export const benchPhone = (n: number) => `+1556${String(n).padStart(7, "0")}`;

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Creates the database when it is missing. */
export async function ensureDatabase(serverUrl: string, database: string): Promise<void> {
  const admin = postgres(databaseUrl(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) await admin.unsafe(`create database "${database.replace(/"/g, '""')}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

/**
 * Seeds the campus unless its school already exists (whole, thanks to the
 * transaction). Needs a migrated database with reference data (prompts).
 */
export async function ensureCampus(url: string, spec: CampusSpec, log: (line: string) => void): Promise<Campus> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [existing] = await sql<{ id: number }[]>`select id from schools where name = ${schoolName(spec)}`;
    let seededInMs: number | null = null;
    let schoolId = existing?.id;
    if (schoolId === undefined) {
      log(`seeding ${spec.database}: ${spec.students} students, ${spec.spreadVotes + spec.deepVotes} votes …`);
      const started = Date.now();
      schoolId = await seedCampus(sql, spec);
      seededInMs = Date.now() - started;
      log(`seeded ${spec.database} in ${(seededInMs / 1000).toFixed(1)} s`);
    }
    await ensureVoterStates(sql, spec, log);
    // Every run, as autovacuum would keep them (it is off on these machines): the last run's
    // votes, or any update of votes, leave pages the visibility map does not cover, and the
    // received-votes pages are index-only scans. One rolled-back update of the deep student's
    // 20,000 votes made page 1,000 by offset cost Postgres 27.6 ms instead of 1 ms a request.
    // About 1 s on a vacuumed campus.
    await sql.unsafe("vacuum (analyze) users, votes");
    const [row] = await sql<{ count: string }[]>`select count(*)::text as count from votes`;
    return { spec, url, schoolId, deepPhone: benchPhone(0), totalVotes: Number(row?.count ?? 0), seededInMs };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Everyone who cast a seeded vote has an allowance row, as on a real campus
 * (the server creates it when a voter's first round opens). Without them voter_state
 * held only the bench's own voters, and Postgres read that tiny table with
 * sequential scans in the vote statement: 3.6 % of its CPU on the round case,
 * a plan a real campus never gets. Also brings a campus seeded before this
 * existed up to date.
 */
async function ensureVoterStates(sql: postgres.Sql, spec: CampusSpec, log: (line: string) => void): Promise<void> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from voter_state`;
  if ((row?.count ?? 0) >= spec.students / 2) return;
  const added = await sql`
    insert into voter_state (user_id, votes_in_batch, skips_in_row, updated_at)
    select distinct voter_id, 0, 0, now() from votes where voter_id is not null
    on conflict (user_id) do nothing`;
  await sql.unsafe("vacuum analyze voter_state");
  log(`${spec.database}: allowance rows for ${added.count} students who cast seeded votes`);
}

async function seedCampus(sql: postgres.Sql, spec: CampusSpec): Promise<number> {
  const n = spec.students;
  return sql.begin(async (tx) => {
    // Bulk load: commit without waiting for the WAL flush, and skip the per-row
    // foreign-key triggers (every id below comes from the rows just inserted).
    await tx.unsafe("set local synchronous_commit = off");
    await tx.unsafe("set local session_replication_role = replica");
    await tx.unsafe("set local work_mem = '256MB'");
    const [school] = await tx<{ id: number }[]>`
      insert into schools (name, short_name, domain, city, state, time_zone, icon)
      values (${schoolName(spec)}, 'Bench', 'bench.example.edu', 'Springfield', 'IL', 'America/Chicago',
              'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=')
      returning id`;
    const schoolId = school!.id;
    const domain = `bench${schoolId}.example.edu`;
    await tx`insert into school_email_domains (domain, school_id) values (${domain}, ${schoolId})`;

    // Students: half of each gender, 3% unverified, 1% paused, 5% boosted, a year of sign-ups; all members of the school.
    await tx`
      insert into users (phone, first_name, school_id, graduation_year, gender, preference, instagram_handle,
                         photo_key, organizations, interests, emojis, is_verified, remaining_unlocks,
                         boost_ends_at, paused_at, created_at, updated_at, school_email_domain, school_verified_at)
      select '+1556' || lpad(g::text, 7, '0'),
             'Student ' || g, ${schoolId}, 2025 + g % 5,
             (case when g % 2 = 0 then 'female' else 'male' end)::gender,
             (case when g % 2 = 0 then 'male' else 'female' end)::gender,
             '@bench' || g,
             'bench/photo-' || (g % 32) || '.jpg',
             array['Chess Club', 'Debate'], array['Hiking'], array['🔥'],
             g = 0 or g % 33 <> 7,
             case when g % 10 = 0 then 3 else 0 end,
             case when g % 20 = 3 then now() + interval '5 days' end,
             case when g % 100 = 11 then now() - interval '3 days' end,
             now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day',
             ${domain}, now() - (g % 365) * interval '1 day'
      from generate_series(0, ${n - 1}) g`;

    await tx.unsafe(`
      create temp table bench_students on commit drop as
        select (substr(phone, 6)::int) as n, id from users where school_id = ${schoolId};
      create unique index on bench_students (n);
      create temp table bench_prompts on commit drop as
        select (row_number() over (order by id) - 1)::int as n, id from prompts where active;
      create unique index on bench_prompts (n);
      analyze bench_students; analyze bench_prompts;`);
    const [counted] = await tx<{ prompts: number }[]>`select count(*)::int as prompts from bench_prompts`;
    const prompts = counted?.prompts ?? 0;
    if (prompts === 0) throw new Error("no active prompts: migrate and seed reference data first");

    // Received votes: recipients skewed (random()^2 favours low numbers), voters uniform and
    // never the recipient, prompts uniform, times over 90 days; votes older than a day notified.
    const insertVotes = (count: number, recipient: string) =>
      tx.unsafe(`
      insert into votes (voter_id, recipient_id, prompt_id, created_at, delivered_at, notified_at)
      select v.id, r.id, p.id, s.at, s.at, case when s.at < now() - interval '1 day' then s.at + interval '10 minutes' end
      from (
        select rn, (rn + 1 + floor(random() * ${n - 1})::int) % ${n} as vn,
               floor(random() * ${prompts})::int as pn,
               now() - random() * interval '90 days' as at
        from (select ${recipient} as rn from generate_series(1, ${count})) picked
      ) s
      join bench_students r on r.n = s.rn
      join bench_students v on v.n = s.vn
      join bench_prompts p on p.n = s.pn`);
    await insertVotes(spec.deepVotes, "0");
    await insertVotes(spec.spreadVotes, `floor(${n} * power(random(), 2))::int`);
    return schoolId;
  });
}

/** The campus of `spec` on the bench server, ready to measure: database, migrations, reference data, students and votes. */
export async function prepareCampus(serverUrl: string, spec: CampusSpec, log: (line: string) => void): Promise<Campus> {
  await ensureDatabase(serverUrl, spec.database);
  const url = databaseUrl(serverUrl, spec.database);
  const handle = await createDatabase({ url, poolSize: 1 });
  try {
    await migrate(handle.db);
    await seedReferenceData(handle.db);
  } finally {
    await handle.close();
  }
  return ensureCampus(url, spec, log);
}

import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type postgres from "postgres";

/**
 * The bench signs its own access tokens with the JWT_SECRET it gives the
 * server: the same claims the server's tokens carry (modules/auth/tokens.ts),
 * so requests pass the same verification as a signed-in student's.
 */
export async function accessToken(secret: string, phone: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  // A family of its own, so every request pays the server's sign-out check.
  return new SignJWT({ sid: randomUUID(), fam: randomUUID() })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(phone)
    .setIssuer("quad")
    .setAudience("quad-api")
    .setIssuedAt(now)
    .setExpirationTime(now + 2 * 60 * 60)
    .sign(new TextEncoder().encode(secret));
}

export interface Voter {
  id: string;
  phone: string;
  headers: Record<string, string>;
}

/**
 * Verified, unpaused students of the campus (never the deep student), each
 * with a token and a client address of its own: the per-address write
 * backstop (10,000 a minute) is meant for one address, and all bench traffic
 * comes from 127.0.0.1. The address is only a header the server trusts (trustProxy).
 */
export async function pickVoters(
  sql: postgres.Sql,
  schoolId: number,
  count: number,
  secret: string,
  deepPhone: string,
): Promise<Voter[]> {
  const rows = await sql<{ id: string; phone: string }[]>`
    select id, phone from users
    where school_id = ${schoolId} and is_verified and school_verified_at is not null and paused_at is null and phone <> ${deepPhone}
    order by md5(id::text) limit ${count}`;
  return Promise.all(
    rows.map(async (row, i) => ({
      id: row.id,
      phone: row.phone,
      headers: {
        authorization: `Bearer ${await accessToken(secret, row.phone)}`,
        "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      },
    })),
  );
}

/**
 * A fresh start for the voters: no open round, a full allowance (as after the cooldown hour),
 * and the tables the round cases churn vacuumed, as autovacuum keeps them in production.
 * The machines here run Postgres with autovacuum off, and every run closes thousands of the
 * same voters' rounds and rewrites their voter_state rows: without this, dead versions piled
 * up from run to run (137,600 dead rounds and 20,384 dead versions of 500 voter_state rows
 * after a day of runs) and Postgres' CPU per round request went 780 → 1,420 µs.
 */
export async function resetVoters(sql: postgres.Sql, voters: readonly Voter[]): Promise<void> {
  const ids = voters.map((v) => v.id);
  // A fresh allowance, as a voter whose last cooldown ended long ago has, and no open round.
  await sql`
    insert into voter_state (user_id, votes_in_batch, skips_in_row, cooldown_until, updated_at)
    select id, 0, 0, null, now() from unnest(${ids}::uuid[]) as id
    on conflict (user_id) do update set votes_in_batch = 0, skips_in_row = 0, cooldown_until = null, round_open = false, updated_at = now()`;
  await sql`vacuum (analyze) rounds, voter_state`;
}

export interface OpenRound {
  voterId: string;
  promptId: number;
  candidateId: string;
}

export async function openRounds(sql: postgres.Sql, voters: readonly Voter[]): Promise<Map<string, OpenRound>> {
  const rows = await sql<
    { user_id: string; round_prompt_id: number; round_candidate_a_id: string; round_candidate_b_id: string }[]
  >`
    select user_id, round_prompt_id, round_candidate_a_id, round_candidate_b_id from voter_state
    where round_open and user_id = any(${voters.map((v) => v.id)}::uuid[])`;
  // Alternate between the two candidates, as people would.
  return new Map(
    rows.map((r, i) => [
      r.user_id,
      {
        voterId: r.user_id,
        promptId: r.round_prompt_id,
        candidateId: i % 2 ? r.round_candidate_a_id : r.round_candidate_b_id,
      },
    ]),
  );
}

/** Re-opens each voter's last round directly in the database (it stays on voter_state once closed): a vote the server must now refuse. */
export async function forceOpenRounds(sql: postgres.Sql, voters: readonly Voter[]): Promise<void> {
  await sql`
    update voter_state set round_open = true
    where user_id = any(${voters.map((v) => v.id)}::uuid[]) and round_opened_at is not null`;
}

/** Votes each voter cast since `since`: the most by one voter and the total. */
export async function votesCastSince(sql: postgres.Sql, voters: readonly Voter[], since: Date) {
  const [row] = await sql<{ most: number | null; total: number; over: number }[]>`
    select max(n)::int as most, coalesce(sum(n), 0)::int as total, count(*) filter (where n > 12)::int as over
    from (select voter_id, count(*) as n from votes
          where voter_id = any(${voters.map((v) => v.id)}::uuid[]) and created_at >= ${since}
          group by voter_id) per_voter`;
  return { most: row?.most ?? 0, total: row?.total ?? 0, over: row?.over ?? 0 };
}

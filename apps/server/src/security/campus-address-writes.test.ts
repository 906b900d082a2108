import { Round, VOTES_PER_BATCH } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../rate-limit/limiter";
import { createTestApp, type TestApp } from "../test/app";
import { campus, sessionFor } from "../test/voters";

/**
 * A campus behind one NAT address: every student's requests arrive from the
 * same address. Signed-in writes are limited per student; the per-address
 * cap is only a backstop far above what a campus sends. The limiter's clock
 * stands still, so every vote below counts in one and the same minute.
 */
const STUDENTS = 100;
const CAMPUS_ADDRESS = "192.0.2.50";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimiter: createMemoryRateLimiter(() => Date.parse("2026-11-27T12:00:00Z")) });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

async function openRound(headers: Headers, rest: boolean) {
  const url = rest ? "/api/prompts/random?skip=false" : "/api/trpc/rounds.open";
  const res = await t.app.inject({ method: "GET", url, headers, remoteAddress: CAMPUS_ADDRESS });
  const body = res.json() as unknown;
  return {
    status: res.statusCode,
    round: Round.safeParse(rest ? body : (body as { result?: { data?: unknown } }).result?.data),
  };
}

async function vote(headers: Headers, rest: boolean, payload: object) {
  const res = await t.app.inject({
    method: "POST",
    url: rest ? "/api/votes/store" : "/api/trpc/rounds.vote",
    headers,
    payload,
    remoteAddress: CAMPUS_ADDRESS,
  });
  return { status: res.statusCode, body: res.body };
}

describe("students behind one campus address", () => {
  it(
    `${STUDENTS} students on one address each vote a full allowance (${VOTES_PER_BATCH}, a round opened before each) within a minute, half over REST and half over tRPC: no 429`,
    { timeout: 180_000 },
    async () => {
      const c = await campus(t, { gender: "female", preference: "female" });
      const students: { headers: Headers; rest: boolean }[] = [{ headers: c.headers, rest: true }];
      for (let i = 1; i < STUDENTS; i++) {
        const user = await c.student({ gender: "female", preference: "female" });
        const tokens = await sessionFor(t, user.phone);
        students.push({ headers: { authorization: `Bearer ${tokens.token}` }, rest: i % 2 === 0 });
      }
      t.deps.candidatePool.invalidate();

      const refused: string[] = [];
      let stored = 0;
      // Round by round across the campus, as students vote side by side.
      for (let n = 0; n < VOTES_PER_BATCH; n++) {
        for (const [i, s] of students.entries()) {
          const opened = await openRound(s.headers, s.rest);
          if (!opened.round.success) {
            refused.push(`student ${i} round ${n}: ${opened.status}`);
            continue;
          }
          const { users, prompt } = opened.round.data;
          const res = await vote(s.headers, s.rest, { userId: users[n % 2]!.id, promptId: prompt.id });
          if (res.status === 200) stored += 1;
          else refused.push(`student ${i} vote ${n}: ${res.status} ${res.body}`);
        }
      }
      expect(refused.filter((line) => line.includes(": 429"))).toEqual([]);
      expect(refused).toEqual([]);
      expect(stored).toBe(STUDENTS * VOTES_PER_BATCH);
    },
  );
});

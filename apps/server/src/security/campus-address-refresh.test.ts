import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryRateLimiter } from "../rate-limit/limiter";
import { createTestApp, type TestApp } from "../test/app";
import { campus, sessionFor } from "../test/voters";

/**
 * One student behind a campus address sends 600 made-up refresh tokens in
 * a minute. When refreshes were limited to 600 a minute per address, every
 * classmate behind that address was then refused a refresh (429), so their
 * 15-minute access tokens ran out and they were signed out. The limiter's clock stands still: everything is in one minute.
 */
const CAMPUS_ADDRESS = "192.0.2.77";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimiter: createMemoryRateLimiter(() => Date.parse("2026-11-27T12:00:00Z")) });
});
afterAll(() => t?.close());

const refresh = (rest: boolean, refreshToken: string) =>
  t.app.inject({
    method: "POST",
    url: rest ? "/api/auth/refresh" : "/api/trpc/auth.refresh",
    payload: { refreshToken },
    remoteAddress: CAMPUS_ADDRESS,
  });

describe("one student on a campus address cannot stop classmates refreshing their sessions", () => {
  it("600 made-up refresh tokens from the campus address, then a classmate's real refresh over REST and tRPC: not 429", async () => {
    const c = await campus(t);
    const classmate = await c.student({ gender: "female", preference: "male" });
    const first = await sessionFor(t, classmate.phone);
    const second = await sessionFor(t, classmate.phone);
    for (let i = 0; i < 600; i++) await refresh(i % 2 === 0, `made-up-${i}`);
    const rest = await refresh(true, first.refreshToken);
    const trpc = await refresh(false, second.refreshToken);
    expect(rest.statusCode).toBe(200);
    expect(trpc.statusCode).toBe(200);
  });
});

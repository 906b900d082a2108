import { ApiErrorBody, ERROR_MESSAGES } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntilAnswering } from "../test/processes";
import { burst, send, startServerProcess, type ServerProcess } from "../test/server-process";
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from "../test/throwaway-postgres";

/**
 * While Postgres is down, every request that needs it fails fast and says so:
 * 503 with the shared error body and Retry-After, over REST and tRPC; the
 * health check says 503 within a second; and the server is back by itself
 * once Postgres is (decision 0014).
 */
const binDir = postgresBinDir();

describe.skipIf(!binDir)(binDir ? "a database outage" : "a database outage (skipped: no initdb/pg_ctl)", () => {
  let postgres: ThrowawayPostgres;
  let server: ServerProcess;

  beforeAll(async () => {
    postgres = await startThrowawayPostgres(binDir!);
    server = await startServerProcess(process.env, { DATABASE_URL: postgres.url });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await postgres?.destroy();
  });

  it("answers 503 with Retry-After within 2 s for 8 s of outage, health within 1 s, and recovers within seconds", async () => {
    const load = burst(server.base, 16);
    await load.answeredSince(0);
    postgres.stop("immediate");
    const downAt = performance.now();
    // A deliberate wait: the outage's length is what is under test (answers stay fast all through it).
    await new Promise((r) => setTimeout(r, 8_000));
    const health = await send(server.base, { path: "/api/health" });
    postgres.start();
    const upAt = performance.now();
    await waitUntilAnswering(`${server.base}/api/health`, server.child, 10_000);
    const recoveredMs = performance.now() - upAt;
    await load.stop();

    // Sent while Postgres was down (and answered before it was back).
    const during = load.answers.filter((a) => a.sentAt > downAt && a.sentAt + a.ms < upAt);
    const slowest = Math.max(...load.answers.map((a) => a.ms));
    console.log(
      `outage ${Math.round(upAt - downAt)} ms: ${during.length} requests, slowest of all ${Math.round(slowest)} ms; health ${Math.round(health.ms)} ms; back ${Math.round(recoveredMs)} ms after Postgres`,
    );
    expect(health.status).toBe(503);
    expect(health.ms).toBeLessThan(1_000);
    expect(during.length).toBeGreaterThan(50);
    for (const answer of during) {
      expect(answer.status, `${answer.path}: ${answer.body}`).toBe(503);
      expect(answer.headers["retry-after"], answer.path).toMatch(/^[1-9]\d*$/);
    }
    // The shared body, on REST and tRPC alike.
    const rest = during.find((a) => a.path === "/api/health")!;
    expect(ApiErrorBody.parse(JSON.parse(rest.body))).toEqual({
      message: ERROR_MESSAGES.unavailable,
      code: "SERVICE_UNAVAILABLE",
      retryAfterSeconds: 5,
    });
    const trpc = during.find((a) => a.path === "/api/trpc/auth.refresh")!;
    expect(JSON.parse(trpc.body)).toMatchObject({
      error: {
        message: ERROR_MESSAGES.unavailable,
        data: { code: "SERVICE_UNAVAILABLE", httpStatus: 503, retryAfterSeconds: 5 },
      },
    });
    // Every request, before, during and after: answered within about 2 s, and only with these.
    expect(slowest).toBeLessThan(2_500);
    for (const answer of load.answers)
      expect([200, 401, 503], `${answer.path}: ${answer.body}`).toContain(answer.status);
    expect(recoveredMs).toBeLessThan(5_000);
  }, 60_000);
});

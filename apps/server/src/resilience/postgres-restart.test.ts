import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntilAnswering } from "../test/processes";
import { burst, startServerProcess, type ServerProcess } from "../test/server-process";
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from "../test/throwaway-postgres";

/**
 * A Postgres restart under load must not take the server down: a real server
 * process on a cluster of this test's own, requests in flight, and Postgres
 * stopped with `-m immediate` and `-m fast` over and over. postgres.js 3.4.9
 * crashed the process with a deferred write to a socket it had already
 * dropped, or an unhandled rejection from its type fetch (decision 0007).
 */
const binDir = postgresBinDir();
const RESTARTS = Number(process.env.RESTART_TEST_ROUNDS ?? 20);
const LANES = 24;

describe.skipIf(!binDir)(
  binDir ? "Postgres restarts under load" : "Postgres restarts under load (skipped: no initdb/pg_ctl)",
  () => {
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

    it(`survives ${RESTARTS} restarts (immediate and fast) with requests in flight, and answers again each time`, async () => {
      for (let round = 0; round < RESTARTS; round++) {
        // Requests in flight before the stop, while Postgres is down (as many answers as lanes), and once it is back.
        const load = burst(server.base, LANES);
        await load.answeredSince(0);
        postgres.stop(round % 2 === 0 ? "immediate" : "fast");
        await load.answeredSince(performance.now(), LANES);
        postgres.start();
        await load.answeredSince(performance.now());
        await load.stop();
        expect(server.alive(), `the server exited in round ${round + 1}:\n${server.output().slice(-2000)}`).toBe(true);
        await waitUntilAnswering(`${server.base}/api/health`, server.child, 15_000);
      }
    }, 120_000);
  },
);

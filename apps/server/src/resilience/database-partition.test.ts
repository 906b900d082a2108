import { startBlackholeProxy, type BlackholeProxy } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntilAnswering } from "../test/processes";
import { burst, send, startServerProcess, type ServerProcess } from "../test/server-process";
import { postgresBinDir, startThrowawayPostgres, type ThrowawayPostgres } from "../test/throwaway-postgres";

/**
 * A network partition between the server and Postgres: the connections stay
 * open and nothing comes back, on them or on new ones (a proxy of this test's
 * own holds every byte). Requests already waiting on Postgres, and those
 * sent meanwhile, get a 503 within seconds instead of waiting the partition
 * out; the silent connections are dropped; the server is back by itself
 * once the partition ends (decision 0033).
 */
const binDir = postgresBinDir();
const PARTITION_MS = 12_000;

describe.skipIf(!binDir)(
  binDir ? "a network partition from Postgres" : "a network partition from Postgres (skipped: no initdb/pg_ctl)",
  () => {
    let postgres: ThrowawayPostgres;
    let proxy: BlackholeProxy;
    let server: ServerProcess;

    beforeAll(async () => {
      postgres = await startThrowawayPostgres(binDir!);
      proxy = await startBlackholeProxy({ host: "127.0.0.1", port: postgres.port });
      server = await startServerProcess(process.env, { DATABASE_URL: proxy.urlFor(postgres.url) });
    }, 120_000);

    afterAll(async () => {
      proxy?.partition(false);
      await server?.stop();
      await proxy?.close();
      await postgres?.destroy();
    });

    it("answers 503 within seconds all through a 12 s partition, drops the silent connections, and recovers", async () => {
      const load = burst(server.base, 16);
      await load.answeredSince(0, 32);
      proxy.partition(true);
      const cutAt = performance.now();
      // A deliberate wait: the partition's length is what is under test (answers must not wait it out).
      await new Promise((r) => setTimeout(r, PARTITION_MS));
      proxy.partition(false);
      const healedAt = performance.now();
      await waitUntilAnswering(`${server.base}/api/health`, server.child, 10_000);
      const recoveredMs = performance.now() - healedAt;
      const after = await send(server.base, { path: "/api/health" });
      await load.stop();

      // Sent during the partition, or waiting on Postgres when it began (sent shortly before).
      const caught = load.answers.filter((a) => a.sentAt + a.ms > cutAt && a.sentAt < healedAt - 6_000);
      // How long each waited while the partition lasted: one sent shortly before the heal may be answered
      // after it (by Postgres), and the time it then took is not the partition's.
      const waitedInPartition = (a: (typeof caught)[number]) =>
        Math.min(a.sentAt + a.ms, healedAt) - Math.max(a.sentAt, cutAt);
      const longestWait = Math.max(...caught.map(waitedInPartition));
      const dropped = proxy.stats().droppedByClient;
      console.log(
        `partition ${Math.round(healedAt - cutAt)} ms: ${caught.length} requests, the longest wait in it ${Math.round(longestWait)} ms ` +
          `(statuses ${[...new Set(caught.map((a) => a.status))].join(", ")}); ${dropped} open connections dropped; ` +
          `back ${Math.round(recoveredMs)} ms after`,
      );
      expect(caught.length).toBeGreaterThan(16);
      for (const answer of caught) {
        // 0: no answer within the client's 10 s.
        expect([200, 401, 503], `${answer.path} after ${Math.round(answer.ms)} ms: ${answer.body}`).toContain(
          answer.status,
        );
        // Answered after the partition healed (a slow one, on a loaded machine), Postgres may have answered it.
        const answeredInPartition = answer.sentAt > cutAt && answer.sentAt + answer.ms < healedAt;
        if (answeredInPartition)
          expect(answer.status, `${answer.path} after ${Math.round(answer.ms)} ms: ${answer.body}`).toBe(503);
      }
      // Waiting on an open connection: 2 s without an answer, then 2 s for a new connection's. Queued
      // for a connection meanwhile: an attempt or two ahead of it, then its own (2 s each; 6.3 s seen on a
      // quiet machine). And a poll's lag, and a loaded machine's slack. Without the answer timeout those
      // sent as it began waited the whole 12 s out.
      expect(longestWait).toBeLessThan(9_000);
      expect(dropped).toBeGreaterThanOrEqual(1);
      expect(after.status).toBe(200);
      expect(recoveredMs).toBeLessThan(5_000);
    }, 60_000);
  },
);

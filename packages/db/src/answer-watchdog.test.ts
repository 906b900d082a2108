import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDatabase, type DatabaseHandle } from "./client";
import { isDatabaseUnavailable } from "./errors";
import { startBlackholeProxy, type BlackholeProxy } from "./testing/blackhole-proxy";

/**
 * A query already sent when the network to Postgres goes silent fails within
 * seconds and its connection is dropped; a query that is only slow is not cut
 * off (decision 0033). Through a proxy of the test's own in front of the test
 * Postgres: its queries are `select 1` and `pg_sleep`, and it changes nothing there.
 */
const url = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ ok: true as const, ms: 0, error: undefined as unknown }),
    (error: unknown) => ({ ok: false as const, ms: 0, error }),
  );

async function timed(promise: Promise<unknown>) {
  const started = performance.now();
  const result = await outcome(promise);
  return { ...result, ms: performance.now() - started };
}

describe.skipIf(!url)(url ? "the answer watchdog" : "the answer watchdog (skipped: no TEST_DATABASE_URL)", () => {
  let proxy: BlackholeProxy | undefined;
  let handle: DatabaseHandle | undefined;

  afterEach(async () => {
    proxy?.partition(false);
    await handle?.close();
    await proxy?.close();
    handle = proxy = undefined;
  });

  async function open(opts: { answerTimeoutMs?: number; statementTimeoutMs?: number }) {
    const target = new URL(url!);
    proxy = await startBlackholeProxy({ host: target.hostname, port: Number(target.port || 5432) });
    handle = await createDatabase({ url: proxy.urlFor(url!), poolSize: 2, connectTimeoutMs: 500, ...opts });
    await handle.db.execute(sql`select 1`);
    return { db: handle.db, proxy };
  }

  it("fails a query sent into a partition within the answer and connect timeouts, drops its connection, and works once the partition ends", async () => {
    const { db, proxy } = await open({ answerTimeoutMs: 500 });
    proxy.partition(true);
    const during = await timed(db.execute(sql`select 1`));
    // The proxy sees the close a moment later.
    await vi.waitFor(() => expect(proxy.stats().droppedByClient).toBeGreaterThanOrEqual(1), { timeout: 1_000 });
    proxy.partition(false);
    const after = await timed(db.execute(sql`select 1`));
    console.log(
      `a query sent into a partition failed after ${Math.round(during.ms)} ms, its connection dropped; the next one after it ended took ${Math.round(after.ms)} ms`,
    );
    expect(during.ok).toBe(false);
    expect(isDatabaseUnavailable(during.error), String(during.error)).toBe(true);
    // 0.5 s without an answer, then 0.5 s for a new connection's, and a poll's lag.
    expect(during.ms).toBeGreaterThan(900);
    expect(during.ms).toBeLessThan(2_500);
    expect(after.ok, String(after.error)).toBe(true);
    expect(after.ms).toBeLessThan(1_000);
  });

  it("lets a slow query run past the answer timeout while Postgres answers new connections", async () => {
    const { db } = await open({ answerTimeoutMs: 300, statementTimeoutMs: 5_000 });
    const slow = await timed(db.execute(sql`select pg_sleep(1.5)`));
    expect(slow.ok, String(slow.error)).toBe(true);
    expect(slow.ms).toBeGreaterThan(1_400);
  });

  it("gives up on a connection that stays silent past the statement timeout while Postgres answers others", async () => {
    const { db, proxy } = await open({ answerTimeoutMs: 300, statementTimeoutMs: 700 });
    proxy.partition(true, { newConnections: false });
    const during = await timed(db.execute(sql`select 1`));
    proxy.partition(false);
    console.log(`a query on a connection cut off alone failed after ${Math.round(during.ms)} ms`);
    expect(during.ok).toBe(false);
    expect(isDatabaseUnavailable(during.error), String(during.error)).toBe(true);
    // Given up at the statement timeout plus the answer timeout (1 s), not before.
    expect(during.ms).toBeGreaterThan(950);
    expect(during.ms).toBeLessThan(2_500);
  });

  it("asks Postgres to drop its side of a connection whose client vanished (keepalive, tcp_user_timeout)", async () => {
    const { db } = await open({ answerTimeoutMs: 500 });
    const [row] = (await db.execute(
      sql`select current_setting('tcp_user_timeout') as user_timeout, current_setting('tcp_keepalives_idle') as idle,
        current_setting('tcp_keepalives_interval') as interval, current_setting('tcp_keepalives_count') as count`,
    )) as unknown as Record<string, string>[];
    expect(row).toEqual({ user_timeout: "10000", idle: "5", interval: "2", count: "3" });
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase, type Database } from "./client";
import { DataDirLockedError } from "./data-dir-lock";
import { isDatabaseUnavailable, pgErrorOf } from "./errors";
import { migrate } from "./migrate";
import { prompts } from "./schema/index";
import { queryRows } from "./sql";

describe("createDatabase", () => {
  it("keeps a PGlite database in its data directory across restarts", async () => {
    const dir = await mkdtemp(join(tmpdir(), "quad-db-"));
    try {
      const first = await createDatabase({ dataDir: join(dir, "pglite") });
      expect(first.kind).toBe("pglite");
      await migrate(first.db);
      await first.db.insert(prompts).values({ text: "Best person to study with" });
      await first.close();

      const second = await createDatabase({ dataDir: join(dir, "pglite") });
      try {
        expect(await migrate(second.db)).toEqual({ applied: 0 });
        expect(await second.db.select({ n: count() }).from(prompts)).toEqual([{ n: 1 }]);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a second open of the same PGlite directory in this process too, and opens it again once closed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "quad-db-"));
    try {
      const first = await createDatabase({ dataDir: join(dir, "pglite") });
      await expect(createDatabase({ dataDir: join(dir, "pglite") })).rejects.toThrow(DataDirLockedError);
      await first.close();
      const again = await createDatabase({ dataDir: join(dir, "pglite") });
      await again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const url = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
  it.skipIf(!url)("on Postgres, cuts a statement off at statementTimeoutMs, as an unavailable database", async () => {
    const handle = await createDatabase({ url, statementTimeoutMs: 200 });
    try {
      const error: unknown = await handle.db.execute(sql`select pg_sleep(2)`).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await handle.close();
    }
  });

  /** The test server's URL asking, as a multi-host URL does, for a session that takes writes. */
  const readWrite = (base: string) => {
    const u = new URL(base);
    u.searchParams.set("target_session_attrs", "read-write");
    return u.toString();
  };
  const backendPid = async (db: Database) =>
    (await queryRows<{ pid: number }>(db, sql`select pg_backend_pid() as pid`))[0]!.pid;
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  it.skipIf(!url)(
    "on Postgres, a read-only error (the node is a standby now) is unavailable, and that connection is replaced, in or out of a transaction",
    async () => {
      const handle = await createDatabase({ url: readWrite(url!), poolSize: 1 });
      try {
        const first = await backendPid(handle.db);
        // As when the node under a connection is demoted: its sessions stop taking writes.
        await handle.db.execute(sql`set default_transaction_read_only = on`);
        const refused = await failure(handle.db.execute(sql`create temporary table t (i int)`));
        expect(pgErrorOf(refused)?.code).toBe("25006");
        expect(isDatabaseUnavailable(refused)).toBe(true);
        const second = await backendPid(handle.db);
        expect(second).not.toBe(first);
        expect(await queryRows(handle.db, sql`show transaction_read_only`)).toEqual([{ transaction_read_only: "off" }]);

        const inTransaction = await failure(
          handle.db.transaction(async (tx) => {
            await tx.execute(sql`set transaction read only`);
            await tx.execute(sql`create temporary table t (i int)`);
          }),
        );
        expect(isDatabaseUnavailable(inTransaction)).toBe(true);
        expect(await backendPid(handle.db)).not.toBe(second);
      } finally {
        await handle.close();
      }
    },
  );

  it.skipIf(!url)(
    "on Postgres, a multi-host URL skips a host that does not answer, and fails a query at once when no host takes writes",
    async () => {
      const host = new URL(url!).host;
      // A host that refuses comes first: the pool goes on to the next.
      const twoHosts = readWrite(url!).replace(host, `127.0.0.1:${await closedPort()},${host}`);
      const handle = await createDatabase({ url: twoHosts, poolSize: 2 });
      try {
        expect(await queryRows(handle.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
      } finally {
        await handle.close();
      }
      // The other host's sessions are read-only: once every host was tried the query fails (it used to wait for ever).
      const readOnly = `${twoHosts}&default_transaction_read_only=on`;
      const refused = await createDatabase({ url: readOnly, poolSize: 1 });
      try {
        const started = performance.now();
        const error = await failure(refused.db.execute(sql`select 1`));
        expect(isDatabaseUnavailable(error)).toBe(true);
        expect(performance.now() - started).toBeLessThan(2_000);
      } finally {
        await refused.close();
      }
    },
  );
});

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "./client";
import { DataDirLockedError } from "./data-dir-lock";
import { isDatabaseUnavailable } from "./errors";
import { migrate } from "./migrate";
import { prompts } from "./schema/index";

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
});

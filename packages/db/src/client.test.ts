import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "./client";
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
});

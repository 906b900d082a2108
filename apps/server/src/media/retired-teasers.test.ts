import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase, DEFAULT_MIGRATIONS_FOLDER, migrate, queryRows } from "@quad/db";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../database";
import { parseConfig } from "../env";
import { removeRetiredTeasers } from "./retired-teasers";
import { createDiskStorage } from "./storage";

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xd9]);
const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "quad-teasers-"));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** What a data folder held before: photos, their teasers, demo avatars with theirs. */
async function storeOldMedia(root: string) {
  const media = createDiskStorage(root);
  const keys = [
    "photos/a.jpg",
    "teasers/t1.jpg",
    "teasers/t2.jpg",
    "demo/avatar-0.jpg",
    "demo/avatar-0-teaser.jpg",
    "demo/avatar-17-teaser.jpg",
  ];
  for (const key of keys) await media.put(key, JPEG, "image/jpeg");
  return media;
}

describe("retired teaser images", () => {
  it("are deleted, and only they; a second run deletes nothing", async () => {
    const root = await tempDir();
    const media = await storeOldMedia(root);
    await writeFile(path.join(root, "teasers", "t3.jpg"), JPEG); // left by a failed upload: no row names it
    expect(await removeRetiredTeasers(media)).toBe(5);
    expect([
      ...(await media.list("photos/")),
      ...(await media.list("demo/")),
      ...(await media.list("teasers/")),
    ]).toEqual(["photos/a.jpg", "demo/avatar-0.jpg"]);
    expect(await removeRetiredTeasers(media)).toBe(0);
  });

  it("go at start beside migration 0004, which drops the column that named them", async () => {
    const dataDir = await tempDir();
    // A database as the previous release left it: migrated up to 0003, with teaser keys.
    const before = await tempDir();
    await cp(DEFAULT_MIGRATIONS_FOLDER, before, { recursive: true });
    const journalFile = path.join(before, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalFile, "utf8")) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((entry) => entry.tag === "0004_drop_vote_card_teasers");
    expect(at).toBeGreaterThan(0);
    await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    const old = await createDatabase({ dataDir: path.join(dataDir, "pglite") });
    await migrate(old.db, { migrationsFolder: before });
    await old.db.execute(
      sql`insert into users (phone, photo_key, teaser_key) values ('+15550000001', 'photos/a.jpg', 'teasers/t1.jpg')`,
    );
    await old.close();
    const media = await storeOldMedia(path.join(dataDir, "media"));

    const config = parseConfig({ NODE_ENV: "test", DATA_DIR: dataDir, SEED_DEMO: "false" }, dataDir);
    const logged: string[] = [];
    const opened = await openDatabase(config, media, (line) => logged.push(line));
    try {
      const columns = await queryRows<{ column_name: string }>(
        opened.db,
        sql`select column_name from information_schema.columns where table_name = 'users' and column_name like '%teaser%'`,
      );
      expect(columns).toEqual([]);
      const [user] = await queryRows<{ photo_key: string }>(opened.db, sql`select photo_key from users`);
      expect(user?.photo_key).toBe("photos/a.jpg");
      expect(await media.get("teasers/t1.jpg")).toBeNull();
      expect(await media.get("demo/avatar-17-teaser.jpg")).toBeNull();
      expect(await media.get("photos/a.jpg")).not.toBeNull();
      expect(await media.get("demo/avatar-0.jpg")).not.toBeNull();
      expect(logged).toContain("deleted 4 retired vote-card teaser images");
    } finally {
      await opened.close();
    }
  });
});

import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createDatabase, migrate, type Database } from "@quad/db";
import { users } from "@quad/db/schema";
import { createTestDatabase, insertTestSchool, insertTestUser } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleServer } from "../../bundle.mjs";
import { urlOfTestDatabase } from "../test/postgres";

const run = promisify(execFile);
const serverDir = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The image holds no sources and no tsx: the first moderator is granted there
 * with the bundled command, on the database the server's configuration names.
 */
const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();

describe("the bundled admin:grant command", () => {
  // Inside apps/server, so the bundle's npm packages resolve from its node_modules as in the image.
  const outdir = path.join(serverDir, "node_modules/.cache/admin-grant-bundle");
  let dataDir: string;
  /** The command's database: a test database on Postgres when there is one, else an embedded one in dataDir. */
  let env: Record<string, string>;
  let open: () => Promise<{ db: Database; close(): Promise<void> }>;

  beforeAll(async () => {
    await bundleServer({ entries: { "admin-grant": "src/cli/admin-grant.ts" }, outdir });
    dataDir = await mkdtemp(path.join(tmpdir(), "quad-admin-grant-"));
    if (serverUrl) {
      const database = await createTestDatabase();
      env = { DATABASE_URL: await urlOfTestDatabase(database.db, serverUrl) };
      open = async () => ({ db: database.db, close: async () => {} });
      closeDatabase = () => database.close();
    } else {
      env = {};
      open = async () => {
        const handle = await createDatabase({ dataDir: path.join(dataDir, "pglite") });
        await migrate(handle.db);
        return handle;
      };
    }
  }, 120_000);

  let closeDatabase: () => Promise<void> = async () => {};
  afterAll(async () => {
    await closeDatabase();
    await rm(outdir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  const grant = (phone: string) =>
    run(process.execPath, [path.join(outdir, "bin/admin-grant.mjs"), phone], {
      cwd: serverDir,
      env: { PATH: process.env.PATH, NODE_ENV: "development", DATA_DIR: dataDir, ...env },
    }).then(
      ({ stdout }) => ({ code: 0, out: stdout }),
      (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
    );

  it("makes a signed-up phone's account an admin, and says so for an unknown or malformed phone", async () => {
    const database = await open();
    let phone: string;
    try {
      const school = await insertTestSchool(database.db);
      phone = (await insertTestUser(database.db, { schoolId: school.id })).phone;
    } finally {
      await database.close();
    }

    expect(await grant("not-a-phone")).toMatchObject({ code: 2, out: expect.stringContaining("Usage") });
    expect(await grant("+14155552671")).toMatchObject({ code: 1, out: expect.stringContaining("must sign up first") });
    expect(await grant(phone)).toMatchObject({ code: 0, out: `${phone} is now an admin.\n` });

    const reopened = await open();
    try {
      const [row] = await reopened.db.select({ role: users.role }).from(users).where(eq(users.phone, phone));
      expect(row?.role).toBe("admin");
    } finally {
      await reopened.close();
    }
  }, 180_000);
});

import { createTestDatabase, insertTestSchool, insertTestUser, type TestDatabase } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POOL_TTL_MS, createCandidatePool } from "./candidate-pool";

describe("candidate pool refresh", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.close());

  it("past its TTL answers the previous pool at once while one reload runs, then the reloaded one", async () => {
    let now = 0;
    const pool = createCandidatePool(t.db, () => now);
    const school = await insertTestSchool(t.db);
    await insertTestUser(t.db, { schoolId: school.id });
    expect(await pool.candidates(school.id, "female")).toHaveLength(1);

    await insertTestUser(t.db, { schoolId: school.id });
    now = POOL_TTL_MS;
    const during = [pool.candidates(school.id, "female"), pool.candidates(school.id, "female")];
    // Both callers got the pool already loaded (the same one), not a wait for the reload.
    expect(during[0]).toBe(during[1]);
    expect(await during[0]).toHaveLength(1);

    await expect.poll(async () => (await pool.candidates(school.id, "female")).length).toBe(2);
  });

  it("a change announced while a refresh loads is not undone by that refresh", async () => {
    let now = 0;
    const pool = createCandidatePool(t.db, () => now);
    const school = await insertTestSchool(t.db);
    await insertTestUser(t.db, { schoolId: school.id });
    expect(await pool.candidates(school.id, "female")).toHaveLength(1);

    now = POOL_TTL_MS;
    void pool.candidates(school.id, "female");
    await insertTestUser(t.db, { schoolId: school.id });
    pool.invalidate(school.id);
    expect(await pool.candidates(school.id, "female")).toHaveLength(2);
  });
});

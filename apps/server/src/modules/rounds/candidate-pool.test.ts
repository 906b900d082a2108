import { createTestDatabase, insertTestSchool, insertTestUser, type TestDatabase } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POOL_TTL_MS, createCandidatePool, parsePoolEntries } from "./candidate-pool";

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

  it("loads the shown students of a school and gender with their boost ends, and nobody else", async () => {
    const pool = createCandidatePool(t.db, () => 0);
    const school = await insertTestSchool(t.db);
    const other = await insertTestSchool(t.db);
    expect(await pool.candidates(school.id, "female")).toEqual([]);
    pool.invalidate();
    const boostEndsAt = new Date("2030-01-02T03:04:05.678Z");
    const plain = await insertTestUser(t.db, { schoolId: school.id });
    const boosted = await insertTestUser(t.db, { schoolId: school.id, boostEndsAt });
    await insertTestUser(t.db, { schoolId: school.id, pausedAt: new Date() });
    await insertTestUser(t.db, { schoolId: school.id, member: false });
    await insertTestUser(t.db, { schoolId: school.id, gender: "male" });
    await insertTestUser(t.db, { schoolId: other.id });
    const loaded = await pool.candidates(school.id, "female");
    expect([...loaded].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [
        { id: plain.id, boostEndsAt: 0 },
        { id: boosted.id, boostEndsAt: boostEndsAt.getTime() },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });

  it("reads the pool's text form", () => {
    expect(parsePoolEntries("")).toEqual([]);
    expect(parsePoolEntries("a,b:1700000000123")).toEqual([
      { id: "a", boostEndsAt: 0 },
      { id: "b", boostEndsAt: 1_700_000_000_123 },
    ]);
  });
});

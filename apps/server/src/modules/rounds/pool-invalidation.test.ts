import { createTestDatabase, insertTestSchool, insertTestUser, type TestDatabase } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCandidatePool } from "./candidate-pool";
import { createLocalInvalidationBus } from "./pool-invalidation";

/** In one process (PGlite): pools sharing a bus forget together. Across processes: perf/several-processes.test.ts. */
describe("candidate pool invalidation", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.close());

  it("a change announced on the bus clears every pool that listens, and only the school named", async () => {
    const bus = createLocalInvalidationBus();
    // The clock never moves: only the bus can make these pools read again.
    const first = createCandidatePool(t.db, () => 0, bus);
    const second = createCandidatePool(t.db, () => 0, bus);
    const school = await insertTestSchool(t.db);
    const other = await insertTestSchool(t.db);
    await insertTestUser(t.db, { schoolId: school.id });
    await insertTestUser(t.db, { schoolId: other.id });
    const count = async (pool: typeof first, schoolId: number) => (await pool.candidates(schoolId, "female")).length;
    expect(await count(second, school.id)).toBe(1);
    expect(await count(second, other.id)).toBe(1);

    await insertTestUser(t.db, { schoolId: school.id });
    await insertTestUser(t.db, { schoolId: other.id });
    expect(await count(second, school.id)).toBe(1);

    first.invalidate(school.id);
    expect(await count(second, school.id)).toBe(2);
    expect(await count(second, other.id)).toBe(1);

    first.invalidate();
    expect(await count(second, other.id)).toBe(2);
    await bus.close();
  });
});

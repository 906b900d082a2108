import type { Database } from "../client";
import { DEFAULT_DEMO_STUDENTS_PER_SCHOOL, seedDemoStudents } from "./demo";
import type { MediaSink } from "./media";
import { seedReferenceData } from "./reference";

export { createDiskMediaSink, createMemoryMediaSink, type MediaSink, type StoredMedia } from "./media";
export { seedLoadTestStudents, type LoadTestSeedOptions, type LoadTestSeedResult } from "./load-test";
export { seedReferenceData } from "./reference";
export { seedDemoStudents, DEFAULT_DEMO_STUDENTS_PER_SCHOOL } from "./demo";
export { AVATAR_HEIGHT, AVATAR_POOL_SIZE, AVATAR_WIDTH, avatarKeys } from "./avatars";
export { SCHOOLS, type SchoolSeed } from "./schools-data";
export { PROMPTS } from "./prompts-data";

export interface SeedOptions {
  /** Also seed demo students, and only into a database without users. */
  demo: boolean;
  media: MediaSink;
  demoStudentsPerSchool?: number;
  /** Clock for boost end times (tests). */
  now?: Date;
}

export interface SeedResult {
  schools: number;
  prompts: number;
  demoStudents: number;
}

/** Idempotent: reference data is upserted every time; demo students at most once. */
export async function seed(db: Database, opts: SeedOptions): Promise<SeedResult> {
  const reference = await seedReferenceData(db);
  const demoStudents = opts.demo
    ? await seedDemoStudents(db, {
        media: opts.media,
        perSchool: opts.demoStudentsPerSchool ?? DEFAULT_DEMO_STUDENTS_PER_SCHOOL,
        ...(opts.now ? { now: opts.now } : {}),
      })
    : 0;
  return { ...reference, demoStudents };
}

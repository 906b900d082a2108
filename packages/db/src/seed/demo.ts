import { inArray, sql } from "drizzle-orm";
import type { Database } from "../client";
import { schools, users, type NewUser } from "../schema/index";
import { putAvatarPool } from "./avatars";
import type { MediaSink } from "./media";
import { SCHOOLS } from "./schools-data";
import { chunks, makeStudent } from "./students";

export const DEFAULT_DEMO_STUDENTS_PER_SCHOOL = 30;
/** Demo phones are +1 555 555 0000–9999 (fictional); each student gets one. */
const DEMO_PHONE_PREFIX = "+1555555";
const DEMO_PHONE_CAPACITY = 10_000;
const SEED_LOCK_KEY = 7_391_224_618;

export interface DemoSeedOptions {
  media: MediaSink;
  perSchool?: number;
  now?: Date;
}

const anyUsers = async (db: Database) => (await db.select({ id: users.id }).from(users).limit(1)).length > 0;

/**
 * Demo students at every seeded school, only into a database without users,
 * so a real deployment that turned SEED_DEMO on later is never polluted.
 * Returns how many were inserted.
 */
export async function seedDemoStudents(db: Database, opts: DemoSeedOptions): Promise<number> {
  const perSchool = opts.perSchool ?? DEFAULT_DEMO_STUDENTS_PER_SCHOOL;
  if (perSchool <= 0) return 0;
  if (perSchool * SCHOOLS.length > DEMO_PHONE_CAPACITY) {
    throw new Error(`At most ${Math.floor(DEMO_PHONE_CAPACITY / SCHOOLS.length)} demo students per school`);
  }
  if (await anyUsers(db)) return 0;
  const avatars = await putAvatarPool(opts.media);
  const now = opts.now ?? new Date();

  return db.transaction(async (tx) => {
    // Two processes seeding one empty database: the second waits, then sees users.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (await anyUsers(tx)) return 0;
    const rows = await tx
      .select({ id: schools.id, name: schools.name })
      .from(schools)
      .where(
        inArray(
          schools.name,
          SCHOOLS.map((s) => s.name),
        ),
      );
    const idByName = new Map(rows.map((r) => [r.name, r.id]));

    const students: NewUser[] = [];
    SCHOOLS.forEach((school, s) => {
      const schoolId = idByName.get(school.name);
      if (schoolId === undefined) throw new Error(`School not seeded: ${school.name}`);
      for (let i = 0; i < perSchool; i++) {
        const n = s * perSchool + i;
        students.push(
          makeStudent({
            seed: `demo:${school.name}`,
            index: i,
            phone: `${DEMO_PHONE_PREFIX}${String(n).padStart(4, "0")}`,
            schoolId,
            schoolDomain: school.domain,
            avatars,
            now,
            boostShare: 0.12,
            showInPreview: true,
          }),
        );
      }
    });
    for (const batch of chunks(students, 500)) await tx.insert(users).values(batch);
    return students.length;
  });
}

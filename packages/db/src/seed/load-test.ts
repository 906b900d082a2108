import { and, asc, eq, gte, lte, max } from "drizzle-orm";
import type { Database } from "../client";
import { schoolEmailDomains, schools, users, type NewUser } from "../schema/index";
import { putAvatarPool } from "./avatars";
import type { MediaSink } from "./media";
import { chunks, makeStudent } from "./students";

/**
 * Load-test phones: +1 555 000 0000 to +1 555 554 9999, below the demo range
 * (+1 555 555 xxxx), so the two never collide. Each run continues after the
 * highest number already used.
 */
const FIRST_PHONE = 15_550_000_000;
const LAST_PHONE = 15_555_549_999;
const phoneOf = (n: number) => `+${n}`;

export interface LoadTestSeedOptions {
  schoolId: number;
  count: number;
  media: MediaSink;
  /** Rows per INSERT (default 1000; 15 columns each stays far below Postgres' parameter limit). */
  batchSize?: number;
  now?: Date;
}

export interface LoadTestSeedResult {
  inserted: number;
  firstPhone?: string;
  lastPhone?: string;
}

/** Bulk-inserts `count` verified students at one school with batched multi-row INSERTs. */
export async function seedLoadTestStudents(db: Database, opts: LoadTestSeedOptions): Promise<LoadTestSeedResult> {
  const { schoolId, count } = opts;
  if (!Number.isInteger(count) || count < 0) throw new Error(`Invalid student count: ${count}`);
  const [school] = await db.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId));
  if (!school) throw new Error(`No school with id ${schoolId}`);
  const [domain] = await db
    .select({ domain: schoolEmailDomains.domain })
    .from(schoolEmailDomains)
    .where(eq(schoolEmailDomains.schoolId, schoolId))
    .orderBy(asc(schoolEmailDomains.domain))
    .limit(1);
  if (!domain) throw new Error(`School ${schoolId} has no e-mail domain, so its students cannot be members`);
  if (count === 0) return { inserted: 0 };

  const avatars = await putAvatarPool(opts.media);
  const now = opts.now ?? new Date();
  const batchSize = opts.batchSize ?? 1000;

  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ last: max(users.phone) })
      .from(users)
      .where(and(gte(users.phone, phoneOf(FIRST_PHONE)), lte(users.phone, phoneOf(LAST_PHONE))));
    const start = row?.last ? Number(row.last.slice(1)) + 1 : FIRST_PHONE;
    if (start + count - 1 > LAST_PHONE) throw new Error("The load-test phone range is exhausted");

    for (const batch of chunks(
      Array.from({ length: count }, (_, i) => i),
      batchSize,
    )) {
      const rows: NewUser[] = batch.map((i) =>
        makeStudent({
          seed: `load:${schoolId}`,
          index: start - FIRST_PHONE + i,
          phone: phoneOf(start + i),
          schoolId,
          schoolDomain: domain.domain,
          avatars,
          now,
          boostShare: 0.05,
          showInPreview: false,
        }),
      );
      await tx.insert(users).values(rows);
    }
    return { inserted: count, firstPhone: phoneOf(start), lastPhone: phoneOf(start + count - 1) };
  });
}

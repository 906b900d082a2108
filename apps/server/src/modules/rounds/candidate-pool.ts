import type { Gender } from "@quad/contracts";
import { preparedStatement, type Database } from "@quad/db";
import { prompts, users } from "@quad/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { shownSql, shownWhere } from "../schools/membership";
import type { PoolEntry } from "./draw";
import type { PoolInvalidationBus } from "./pool-invalidation";

/** How long a loaded pool is trusted. Each drawn pair is re-checked in the database anyway. */
export const POOL_TTL_MS = 15_000;

interface Cached<T> {
  value: Promise<T>;
  loadedAt: number;
}

/**
 * Who can be drawn, per school and gender: ids and boost ends only, loaded
 * with one index-only scan of users_candidates_idx and kept briefly in
 * memory, so a round costs no scan of the school's students. Staleness is
 * harmless: the pair drawn from it is verified against the database.
 * With several server processes, `invalidate` goes through the bus, so a
 * change made in one process clears the pools of all of them at once.
 */
export interface CandidatePool {
  candidates(schoolId: number, gender: Gender): Promise<readonly PoolEntry[]>;
  /** Students who opted in to the landing preview, per school, for visitors. */
  previewSchools(gender: Gender): Promise<ReadonlyMap<number, readonly PoolEntry[]>>;
  activePromptIds(): Promise<readonly number[]>;
  /** Forget what is cached (a profile changed), in every process; all of it when no school is named. */
  invalidate(schoolId?: number): void;
}

/**
 * A school's pool for one gender as one text value, "id" or "id:boostEndsMs"
 * joined by commas, from the same index-only scan. Read as 25,000 rows, the
 * reload of a big campus held the event loop for up to ~100 ms every 15 s
 * (every request in flight waited: the p99 of opening a round at half rate);
 * one string split in JS takes a few.
 */
const poolStatement = preparedStatement<{ schoolId: number; gender: Gender }>(
  (p) => sql`
    select coalesce(string_agg(u.id::text || coalesce(':' || (extract(epoch from u.boost_ends_at) * 1000)::bigint, ''), ','), '') as entries
    from users u
    where u.school_id = ${p.schoolId} and u.gender = ${p.gender}::gender and ${shownSql("u")}`,
);

export function parsePoolEntries(entries: string): PoolEntry[] {
  if (entries === "") return [];
  return entries.split(",").map((entry) => {
    const colon = entry.indexOf(":");
    return colon < 0
      ? { id: entry, boostEndsAt: 0 }
      : { id: entry.slice(0, colon), boostEndsAt: Number(entry.slice(colon + 1)) };
  });
}

export function createCandidatePool(
  db: Database,
  clock: () => number = Date.now,
  bus?: PoolInvalidationBus,
): CandidatePool {
  const cache = new Map<string, Cached<unknown>>();
  // A load still in flight when its key is forgotten is not put back: it was
  // stored when it started, so deleting the key drops it for later callers.
  const forget = (schoolId?: number) => {
    if (schoolId === undefined) return cache.clear();
    for (const key of cache.keys()) if (key.startsWith(`c:${schoolId}:`) || key.startsWith("p:")) cache.delete(key);
  };
  bus?.subscribe(forget);
  // Past its TTL, a pool is refreshed in the background and the previous one
  // answers meanwhile (it was trusted a moment ago and every drawn pair is
  // re-checked): otherwise every round opened during the reload of a big
  // campus (25,000 rows) would wait for it. `invalidate` still forgets at once.
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = cache.get(key) as Cached<T> | undefined;
    if (hit && clock() - hit.loadedAt < POOL_TTL_MS) return hit.value;
    const value = load();
    const entry: Cached<T> = { value, loadedAt: clock() };
    value.catch(() => {
      if (cache.get(key) === entry) cache.delete(key);
    });
    if (!hit) {
      cache.set(key, entry);
      return value;
    }
    // Keep answering the previous pool (marked fresh so one refresh runs at a time) until this one loads.
    cache.set(key, { value: hit.value, loadedAt: clock() });
    value.then(
      () => {
        if (cache.get(key)?.value === hit.value) cache.set(key, entry);
      },
      () => {},
    );
    return hit.value;
  };
  const toEntry = (row: { id: string; boostEndsAt: Date | null }): PoolEntry => ({
    id: row.id,
    boostEndsAt: row.boostEndsAt?.getTime() ?? 0,
  });

  return {
    candidates(schoolId, gender) {
      return cached(`c:${schoolId}:${gender}`, async () => {
        const [row] = await poolStatement<{ entries: string }>(db, { schoolId, gender });
        return parsePoolEntries(row?.entries ?? "");
      });
    },
    previewSchools(gender) {
      return cached(`p:${gender}`, async () => {
        const rows = await db
          .select({ id: users.id, boostEndsAt: users.boostEndsAt, schoolId: users.schoolId })
          .from(users)
          .where(and(eq(users.showInPreview, true), shownWhere(), eq(users.gender, gender)));
        const bySchool = new Map<number, PoolEntry[]>();
        for (const row of rows) {
          if (row.schoolId === null) continue;
          const list = bySchool.get(row.schoolId) ?? [];
          list.push(toEntry(row));
          bySchool.set(row.schoolId, list);
        }
        for (const [school, list] of bySchool) if (list.length < 2) bySchool.delete(school);
        return bySchool;
      });
    },
    activePromptIds() {
      return cached("prompts", async () => {
        const rows = await db.select({ id: prompts.id }).from(prompts).where(eq(prompts.active, true));
        return rows.map((row) => row.id);
      });
    },
    invalidate(schoolId) {
      if (bus) bus.publish(schoolId);
      else forget(schoolId);
    },
  };
}

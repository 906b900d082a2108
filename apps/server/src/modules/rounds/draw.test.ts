import { describe, expect, it } from "vitest";
import { drawPair, drawWeighted, type PoolEntry } from "./draw";

/** A seeded PRNG (mulberry32) so statistical tests are repeatable. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const now = 1_800_000_000_000;
const pool = (n: number, boosted = 0): PoolEntry[] =>
  Array.from({ length: n }, (_, i) => ({ id: `s${i}`, boostEndsAt: i < boosted ? now + 3600_000 : 0 }));

describe("weighted draw", () => {
  it("draws boosted students 5 times as often (10,000 draws, ratio within 4.5–5.5)", () => {
    const students = pool(200, 20);
    const counts = new Map<string, number>();
    const random = seeded(42);
    for (let i = 0; i < 10_000; i++) {
      for (const entry of drawPair(students, { always: new Set(), recent: [], now, random })!) {
        counts.set(entry.id, (counts.get(entry.id) ?? 0) + 1);
      }
    }
    const mean = (ids: PoolEntry[]) => ids.reduce((sum, e) => sum + (counts.get(e.id) ?? 0), 0) / ids.length;
    const ratio = mean(students.slice(0, 20)) / mean(students.slice(20));
    expect(ratio).toBeGreaterThan(4.5);
    expect(ratio).toBeLessThan(5.5);
  });

  it("treats an ended boost as no boost", () => {
    const students = pool(100).map((e, i) => (i < 10 ? { ...e, boostEndsAt: now - 1 } : e));
    const counts = new Map<string, number>();
    const random = seeded(7);
    for (let i = 0; i < 10_000; i++)
      for (const e of drawWeighted(students, new Set(), 1, now, random)!) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
    const first10 = students.slice(0, 10).reduce((s, e) => s + (counts.get(e.id) ?? 0), 0) / 10;
    const rest = students.slice(10).reduce((s, e) => s + (counts.get(e.id) ?? 0), 0) / 90;
    expect(first10 / rest).toBeGreaterThan(0.8);
    expect(first10 / rest).toBeLessThan(1.25);
  });

  it("never draws an excluded student or the same student twice", () => {
    const students = pool(6);
    const random = seeded(1);
    for (let i = 0; i < 2000; i++) {
      const pair = drawPair(students, { always: new Set(["s0", "s1"]), recent: [], now, random })!;
      expect(pair[0].id).not.toBe(pair[1].id);
      for (const e of pair) expect(["s0", "s1"]).not.toContain(e.id);
    }
  });

  it("answers null when fewer than two remain", () => {
    expect(drawPair(pool(3), { always: new Set(["s0", "s1"]), recent: [], now, random: seeded(1) })).toBeNull();
    expect(drawPair(pool(1), { always: new Set(), recent: [], now, random: seeded(1) })).toBeNull();
  });
});

describe("recently shown students", () => {
  it("are not repeated while others are available: in a pool of 10 nobody returns within 3 rounds, all appear within 10", () => {
    const students = pool(10);
    const random = seeded(9);
    const recent: string[] = [];
    const history: string[][] = [];
    for (let round = 0; round < 400; round++) {
      const pair = drawPair(students, { always: new Set(), recent, now, random })!;
      const ids = pair.map((e) => e.id);
      for (const previous of history.slice(-3)) for (const id of ids) expect(previous).not.toContain(id);
      history.push(ids);
      recent.unshift(ids[1]!, ids[0]!);
      recent.splice(100);
    }
    for (let start = 0; start + 10 <= history.length; start += 10) {
      expect(new Set(history.slice(start, start + 10).flat()).size).toBe(10);
    }
    // Pairings vary rather than cycling in a fixed order.
    expect(new Set(history.map((ids) => [...ids].sort().join("+"))).size).toBeGreaterThan(15);
  });

  it("give way when nobody else is left, so a tiny pool still has rounds", () => {
    const pair = drawPair(pool(2), { always: new Set(), recent: ["s0", "s1"], now, random: seeded(3) });
    expect(pair?.map((e) => e.id).sort()).toEqual(["s0", "s1"]);
  });

  it("every student of a big pool is shown over time, each about equally", () => {
    const students = pool(300);
    const random = seeded(11);
    const counts = new Map<string, number>();
    const recent: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const pair = drawPair(students, { always: new Set(), recent, now, random })!;
      for (const e of pair) counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
      recent.unshift(pair[1].id, pair[0].id);
      recent.splice(100);
    }
    expect(counts.size).toBe(300);
    const values = [...counts.values()];
    expect(Math.min(...values)).toBeGreaterThanOrEqual(8);
    expect(Math.max(...values)).toBeLessThanOrEqual(35);
  });
});

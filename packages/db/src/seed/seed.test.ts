import { classYearsAt } from "@quad/contracts";
import { asc, count, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prompts, schools, users } from "../schema/index";
import { createTestDatabase, insertTestUser, type TestDatabase } from "../testing/index";
import {
  AVATAR_HEIGHT,
  AVATAR_POOL_SIZE,
  AVATAR_WIDTH,
  DEFAULT_DEMO_STUDENTS_PER_SCHOOL,
  PROMPTS,
  SCHOOLS,
  createMemoryMediaSink,
  seed,
  seedLoadTestStudents,
} from "./index";
import { makeStudent } from "./students";

const snapshot = (t: TestDatabase) =>
  t.db
    .select({
      phone: users.phone,
      firstName: users.firstName,
      school: schools.name,
      graduationYear: users.graduationYear,
      gender: users.gender,
      organizations: users.organizations,
      interests: users.interests,
      emojis: users.emojis,
      instagramHandle: users.instagramHandle,
      photoKey: users.photoKey,
      preference: users.preference,
    })
    .from(users)
    .innerJoin(schools, eq(users.schoolId, schools.id))
    .orderBy(asc(users.phone));

describe("seed", () => {
  let t: TestDatabase;
  const media = createMemoryMediaSink();
  let firstRunMs = 0;

  beforeAll(async () => {
    t = await createTestDatabase();
    const started = performance.now();
    const result = await seed(t.db, { demo: true, media });
    firstRunMs = performance.now() - started;
    console.log(`[seed] ${t.kind}: ${JSON.stringify(result)} in ${Math.round(firstRunMs)} ms`);
  });
  afterAll(() => t?.close());

  it("takes seconds, not minutes", () => {
    expect(firstRunMs).toBeLessThan(20_000);
  });

  it("seeds at least 20 real schools with monogram icons and valid time zones", async () => {
    const rows = await t.db.select().from(schools);
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(rows).toHaveLength(SCHOOLS.length);
    for (const school of rows) {
      expect(school.domain).toMatch(/^[a-z0-9.-]+\.edu$/);
      expect(() => new Intl.DateTimeFormat("en-US", { timeZone: school.timeZone })).not.toThrow();
      expect(school.icon).toMatch(/^data:image\/svg\+xml;base64,/);
      const svg = Buffer.from(school.icon.split(",")[1]!, "base64").toString("utf8");
      expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).not.toMatch(/<image|href=/); // drawn, never an embedded logo
    }
  });

  it("seeds at least 60 prompts, none about looks or dating", async () => {
    const [row] = await t.db.select({ n: count() }).from(prompts);
    expect(row!.n).toBeGreaterThanOrEqual(60);
    expect(new Set(PROMPTS).size).toBe(PROMPTS.length);
    const banned =
      /\b(hot|hottest|cute|cutest|attractive|beautiful|pretty|handsome|sexy|looks?|looking|body|bodies|face|smile|eyes|outfit|dressed|style|date|dating|crush|kiss|marry|romantic|flirt)\b/i;
    for (const prompt of PROMPTS) expect(prompt).not.toMatch(banned);
  });

  it("seeds demo students of both genders at every school, verified and in the preview", async () => {
    const rows = await t.db
      .select({ schoolId: users.schoolId, gender: users.gender, n: count() })
      .from(users)
      .groupBy(users.schoolId, users.gender);
    const bySchool = new Map<number, Set<string>>();
    for (const r of rows) bySchool.set(r.schoolId!, (bySchool.get(r.schoolId!) ?? new Set()).add(r.gender!));
    expect(bySchool.size).toBe(SCHOOLS.length);
    for (const genders of bySchool.values()) expect([...genders].sort()).toEqual(["female", "male"]);

    const all = await t.db.select().from(users);
    expect(all).toHaveLength(SCHOOLS.length * DEFAULT_DEMO_STUDENTS_PER_SCHOOL);
    for (const u of all) {
      expect(u.phone).toMatch(/^\+1555555\d{4}$/);
      expect(u).toMatchObject({ isVerified: true, showInPreview: true, role: "student", remainingUnlocks: 0 });
      expect(media.files.has(u.photoKey!)).toBe(true);
    }
    expect(all.some((u) => u.boostEndsAt && u.boostEndsAt > new Date())).toBe(true);
    // This academic year's classes, as the wizard offers them, and each of them.
    expect(new Set(all.map((u) => u.graduationYear))).toEqual(new Set(classYearsAt(new Date())));
  });

  it("stores 3:4 JPEG photos and nothing derived from them", async () => {
    expect(media.files.size).toBe(AVATAR_POOL_SIZE);
    for (const file of media.files.values()) {
      expect(file.contentType).toBe("image/jpeg");
      const meta = await sharp(file.data).metadata();
      expect(meta.format).toBe("jpeg");
      expect([meta.width, meta.height]).toEqual([AVATAR_WIDTH, AVATAR_HEIGHT]);
    }
  });

  it("is idempotent: a second run adds nothing", async () => {
    const before = await snapshot(t);
    const [promptCount] = await t.db.select({ n: count() }).from(prompts);
    const result = await seed(t.db, { demo: true, media });
    expect(result.demoStudents).toBe(0);
    expect(await snapshot(t)).toEqual(before);
    expect(await t.db.select({ n: count() }).from(prompts)).toEqual([promptCount]);
    expect(await t.db.select({ n: count() }).from(schools)).toEqual([{ n: SCHOOLS.length }]);
  });

  it("is deterministic: another database gets the same students", async () => {
    const other = await createTestDatabase();
    try {
      await seed(other.db, { demo: true, media: createMemoryMediaSink() });
      expect(await snapshot(other)).toEqual(await snapshot(t));
    } finally {
      await other.close();
    }
  });

  it("bulk-inserts load-test students after the highest phone used", async () => {
    const [school] = await t.db.select().from(schools).where(eq(schools.name, SCHOOLS[0]!.name));
    const started = performance.now();
    const first = await seedLoadTestStudents(t.db, { schoolId: school!.id, count: 2500, media, batchSize: 700 });
    console.log(`[seed] ${t.kind}: 2500 load-test students in ${Math.round(performance.now() - started)} ms`);
    expect(first).toEqual({ inserted: 2500, firstPhone: "+15550000000", lastPhone: "+15550002499" });
    const second = await seedLoadTestStudents(t.db, { schoolId: school!.id, count: 3, media });
    expect(second.firstPhone).toBe("+15550002500");
    const [row] = await t.db
      .select({ n: count() })
      .from(users)
      .where(sql`${users.schoolId} = ${school!.id} and ${users.isVerified}`);
    expect(row!.n).toBe(DEFAULT_DEMO_STUDENTS_PER_SCHOOL + 2503);
    await expect(seedLoadTestStudents(t.db, { schoolId: 999_999, count: 1, media })).rejects.toThrow(/No school/);
  });
});

describe("seed without demo", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.close());

  it("seeds only reference data, and never demo students into a database with users", async () => {
    const media = createMemoryMediaSink();
    expect(await seed(t.db, { demo: false, media })).toMatchObject({ demoStudents: 0 });
    expect(await t.db.select({ n: count() }).from(users)).toEqual([{ n: 0 }]);

    const [school] = await t.db.select().from(schools).limit(1);
    await insertTestUser(t.db, { schoolId: school!.id });
    expect(await seed(t.db, { demo: true, media })).toMatchObject({ demoStudents: 0 });
    expect(await t.db.select({ n: count() }).from(users)).toEqual([{ n: 1 }]);
    expect(media.files.size).toBe(0);
  });
});

describe("demo students' class years follow the date, as the wizard's do", () => {
  const student = (now: Date, index: number) =>
    makeStudent({
      seed: "class-years",
      index,
      phone: `+1555555${String(index).padStart(4, "0")}`,
      schoolId: 1,
      schoolDomain: "uw.edu",
      avatars: [{ gender: "female", photoKey: "a.jpg" }],
      now,
      boostShare: 0,
      showInPreview: true,
    }).graduationYear;
  const yearsOf = (iso: string) => new Set(Array.from({ length: 200 }, (_, i) => student(new Date(iso), i)));

  it("the day before the academic year turns: 2026–2029", () => {
    expect(yearsOf("2026-06-30T23:59:59.999Z")).toEqual(new Set([2026, 2027, 2028, 2029]));
  });

  it("from 1 July: the class of 2026 has graduated, the class of 2030 arrived", () => {
    expect(yearsOf("2026-07-01T00:00:00.000Z")).toEqual(new Set([2027, 2028, 2029, 2030]));
  });
});

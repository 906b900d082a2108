import { randomInt } from "node:crypto";
import type { Database } from "../client";
import { sql } from "drizzle-orm";
import {
  prompts,
  schoolEmailDomains,
  schools,
  users,
  type NewUser,
  type Prompt,
  type School,
  type User,
} from "../schema/index";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomInt(1e6).toString(36)}`;

/**
 * A school with a unique name and e-mail domain (`tu-….edu`, which proves
 * membership); tests that need reference data can call seed() instead.
 */
export async function insertTestSchool(db: Database, overrides: Partial<School> = {}): Promise<School> {
  const id = unique();
  const [row] = await db
    .insert(schools)
    .values({
      name: `Test University ${id}`,
      shortName: "TU",
      domain: `tu-${id}.edu`,
      city: "Testville",
      state: "CA",
      timeZone: "America/Los_Angeles",
      icon: "data:image/svg+xml;base64,",
      ...overrides,
    })
    .returning();
  await db
    .insert(schoolEmailDomains)
    .values({ domain: row!.domain.toLowerCase(), schoolId: row!.id })
    .onConflictDoNothing();
  return row!;
}

export async function insertTestPrompt(
  db: Database,
  text = `Most likely to pass this test ${unique()}`,
): Promise<Prompt> {
  const [row] = await db.insert(prompts).values({ text }).returning();
  return row!;
}

/** Area codes the server's phone rule accepts with any exchange 200–999 (it texts only valid US numbers). */
const US_AREA_CODES = [202, 212, 312, 415, 617, 713];

/** A random valid US number, so a fixture student can also sign in or be looked up through the API. */
export function randomUsPhone(): string {
  const area = US_AREA_CODES[randomInt(US_AREA_CODES.length)]!;
  return `+1${area}${200 + randomInt(800)}${String(randomInt(10_000)).padStart(4, "0")}`;
}

export type TestUserOverrides = Partial<NewUser> & {
  schoolId: number;
  /** false: has not proved a school address yet */ member?: boolean;
};

/**
 * A complete, verified student (the verified-profile CHECK needs every field)
 * and a member of the school (proved by one of its domains, no address;
 * with `schoolEmail`, its mailbox too); override anything.
 */
export async function insertTestUser(db: Database, overrides: TestUserOverrides): Promise<User> {
  const { member = true, ...values } = overrides;
  const membership = member
    ? {
        schoolEmailDomain: sql`(select domain from school_email_domains where school_id = ${values.schoolId} order by domain limit 1)`,
        schoolVerifiedAt: new Date(),
      }
    : {};
  const [row] = await db
    .insert(users)
    .values({
      phone: randomUsPhone(),
      firstName: "Test",
      graduationYear: 2027,
      gender: "female",
      instagramHandle: "@test.student",
      photoKey: "test/photo.jpg",
      isVerified: true,
      ...membership,
      // A proved address names its mailbox: its local part at the school's main domain.
      ...(values.schoolEmail && values.schoolEmailCanonical === undefined
        ? {
            schoolEmailCanonical: sql`split_part(${values.schoolEmail}, '@', 1) || '@' || (select lower(domain) from schools where id = ${values.schoolId})`,
          }
        : {}),
      ...values,
    })
    .returning();
  return row!;
}

/** A vote's times when it was cast and delivered at one moment (its drawn delay was nothing), for rows a test stores. */
export const deliveredAt = (at: Date = new Date()) => ({ createdAt: at, deliveredAt: at });

import { randomInt } from "node:crypto";
import type { Database } from "../client";
import { prompts, schools, users, type NewUser, type Prompt, type School, type User } from "../schema/index";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomInt(1e6).toString(36)}`;

/** A school with a unique name (tests that need reference data can call seed() instead). */
export async function insertTestSchool(db: Database, overrides: Partial<School> = {}): Promise<School> {
  const [row] = await db
    .insert(schools)
    .values({
      name: `Test University ${unique()}`,
      shortName: "TU",
      domain: "test.edu",
      city: "Testville",
      state: "CA",
      timeZone: "America/Los_Angeles",
      icon: "data:image/svg+xml;base64,",
      ...overrides,
    })
    .returning();
  return row!;
}

export async function insertTestPrompt(db: Database, text = `Most likely to pass this test ${unique()}`): Promise<Prompt> {
  const [row] = await db.insert(prompts).values({ text }).returning();
  return row!;
}

export type TestUserOverrides = Partial<NewUser> & { schoolId: number };

/** A complete, verified student (the verified-profile CHECK needs every field); override anything. */
export async function insertTestUser(db: Database, overrides: TestUserOverrides): Promise<User> {
  const [row] = await db
    .insert(users)
    .values({
      phone: `+1${String(2_000_000_000 + randomInt(7_999_999_999)).slice(0, 10)}`,
      firstName: "Test",
      graduationYear: 2027,
      gender: "female",
      instagramHandle: "@test.student",
      photoKey: "test/photo.jpg",
      isVerified: true,
      ...overrides,
    })
    .returning();
  return row!;
}

import type { School } from "@quad/contracts";
import type { Database } from "@quad/db";
import { schools } from "@quad/db/schema";
import { asc } from "drizzle-orm";

export async function listSchools(db: Database): Promise<School[]> {
  const rows = await db
    .select({ id: schools.id, schoolName: schools.name, icon: schools.icon })
    .from(schools)
    .orderBy(asc(schools.name));
  return rows;
}

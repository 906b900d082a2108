import type { School } from "@quad/contracts";
import type { Database } from "@quad/db";
import { schools } from "@quad/db/schema";
import { asc, sql } from "drizzle-orm";

/** A school row's e-mail domains, its main domain first (for a select that reads `schools`). */
export const schoolDomainsSql = () =>
  sql<string[]>`coalesce((select array_agg(d.domain order by d.domain <> lower(${schools.domain}), d.domain)
    from school_email_domains d where d.school_id = ${schools.id}), '{}'::text[])`;

/** Every school, with the e-mail domains that prove membership (its main domain first). */
export async function listSchools(db: Database): Promise<School[]> {
  return db
    .select({
      id: schools.id,
      schoolName: schools.name,
      icon: schools.icon,
      emailDomains: schoolDomainsSql(),
    })
    .from(schools)
    .orderBy(asc(schools.name));
}

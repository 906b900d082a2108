import { sql } from "drizzle-orm";
import type { Database } from "../client";
import { prompts, schoolEmailDomains, schools } from "../schema/index";
import { monogramDataUri } from "./monogram";
import { PROMPTS } from "./prompts-data";
import { SCHOOLS } from "./schools-data";

/**
 * Schools and prompts, upserted by their unique name/text: safe on every
 * start. A school row is only rewritten when a seeded field changed.
 */
export async function seedReferenceData(db: Database): Promise<{ schools: number; prompts: number }> {
  const schoolRows = SCHOOLS.map((s) => ({
    name: s.name,
    shortName: s.shortName,
    domain: s.domain,
    city: s.city,
    state: s.state,
    timeZone: s.timeZone,
    icon: monogramDataUri(s.name, s.monogram),
  }));
  await db
    .insert(schools)
    .values(schoolRows)
    .onConflictDoUpdate({
      target: schools.name,
      set: {
        shortName: sql`excluded.short_name`,
        domain: sql`excluded.domain`,
        city: sql`excluded.city`,
        state: sql`excluded.state`,
        timeZone: sql`excluded.time_zone`,
        icon: sql`excluded.icon`,
      },
      setWhere: sql`(${schools.shortName}, ${schools.domain}, ${schools.city}, ${schools.state}, ${schools.timeZone}, ${schools.icon})
        is distinct from (excluded.short_name, excluded.domain, excluded.city, excluded.state, excluded.time_zone, excluded.icon)`,
    });
  // Domains are only added: one may already prove someone's membership.
  const ids = new Map(
    (await db.select({ id: schools.id, name: schools.name }).from(schools)).map((s) => [s.name, s.id]),
  );
  const domainRows = SCHOOLS.flatMap((s) =>
    [s.domain, ...(s.otherDomains ?? [])].map((domain) => ({ domain, schoolId: ids.get(s.name)! })),
  );
  await db.insert(schoolEmailDomains).values(domainRows).onConflictDoNothing({ target: schoolEmailDomains.domain });
  // Prompts are never rewritten: an admin may have deactivated one.
  await db
    .insert(prompts)
    .values(PROMPTS.map((text) => ({ text })))
    .onConflictDoNothing({ target: prompts.text });
  return { schools: schoolRows.length, prompts: PROMPTS.length };
}

import type { CandidateOption, Gender } from "@quad/contracts";
import type { Database } from "@quad/db";
import { users } from "@quad/db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { mediaUrl } from "../../media/storage";
import { shownWhere } from "../schools/membership";

/** The public fields of students (docs/product.md "What others may see"): never a handle, never a phone. */
export async function publicProfiles(
  db: Database,
  ids: readonly string[],
  eligibility: { schoolId?: number; gender: Gender; previewOnly?: boolean },
): Promise<Map<string, CandidateOption>> {
  const rows = await db
    .select({
      id: users.id,
      photoKey: users.photoKey,
      firstName: users.firstName,
      graduationYear: users.graduationYear,
      organizations: users.organizations,
      interests: users.interests,
    })
    .from(users)
    .where(
      and(
        inArray(users.id, [...ids]),
        shownWhere(),
        eq(users.gender, eligibility.gender),
        eligibility.schoolId === undefined ? undefined : eq(users.schoolId, eligibility.schoolId),
        eligibility.previewOnly ? eq(users.showInPreview, true) : undefined,
      ),
    );
  const out = new Map<string, CandidateOption>();
  for (const row of rows) {
    // A verified profile always has these (the users_verified_profile_complete check).
    out.set(row.id, {
      id: row.id,
      profileImageUrl: mediaUrl(row.photoKey!),
      firstName: row.firstName!,
      graduationYear: row.graduationYear!,
      organizations: row.organizations,
      interests: row.interests,
    });
  }
  return out;
}

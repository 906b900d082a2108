import { classYearsAt, type Gender } from "@quad/contracts";
import type { NewUser } from "../schema/index";
import type { AvatarKeys } from "./avatars";
import { createRandom } from "./random";
import { EMOJIS, FEMALE_NAMES, INTERESTS, MALE_NAMES, ORGANIZATIONS } from "./students-data";

const HOUR_MS = 60 * 60 * 1000;

export interface StudentSpec {
  /** Seeds the PRNG: the same seed and index always give the same student. */
  seed: string;
  index: number;
  phone: string;
  schoolId: number;
  /** One of the school's e-mail domains: seeded students are members without an address. */
  schoolDomain: string;
  avatars: readonly AvatarKeys[];
  now: Date;
  /** Share of students given a running boost. */
  boostShare: number;
  showInPreview: boolean;
}

/**
 * One verified student, a member of the school. Genders alternate by index so every school has both;
 * everything else comes from a PRNG seeded per student, so runs are identical
 * apart from what derives from `now` (timestamps, and the class years of the academic year).
 */
export function makeStudent(spec: StudentSpec): NewUser {
  const rnd = createRandom(`${spec.seed}#${spec.index}`);
  const gender: Gender = spec.index % 2 === 0 ? "female" : "male";
  const firstName = rnd.pick(gender === "female" ? FEMALE_NAMES : MALE_NAMES);
  const sameGenderAvatars = spec.avatars.filter((a) => a.gender === gender);
  const avatar = rnd.pick(sameGenderAvatars.length > 0 ? sameGenderAvatars : spec.avatars);
  const boosted = rnd.next() < spec.boostShare;
  // Always drawn, boosted or not, so the random stream does not depend on the outcome.
  const boostHours = rnd.int(2, 72);
  const phoneTail = spec.phone.slice(-4);
  return {
    phone: spec.phone,
    firstName,
    schoolId: spec.schoolId,
    // Today's classes, as the wizard offers them: nobody shown has already graduated.
    graduationYear: rnd.pick(classYearsAt(spec.now)),
    gender,
    instagramHandle: `@quaddemo.${firstName.toLowerCase()}${phoneTail}`,
    photoKey: avatar.photoKey,
    organizations: rnd.sample(ORGANIZATIONS, rnd.int(1, 3)),
    interests: rnd.sample(INTERESTS, rnd.int(2, 4)),
    emojis: rnd.sample(EMOJIS, rnd.int(1, 3)),
    preference: rnd.next() < 0.5 ? "female" : "male",
    isVerified: true,
    schoolEmailDomain: spec.schoolDomain,
    schoolVerifiedAt: spec.now,
    boostEndsAt: boosted ? new Date(spec.now.getTime() + boostHours * HOUR_MS) : null,
    showInPreview: spec.showInPreview,
  };
}

/** Splits rows into multi-row INSERTs small enough for the 65,535-parameter limit. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

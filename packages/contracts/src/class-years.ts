/**
 * The class years a student may sign up with (docs/product.md "Signing up and signing in"): from this
 * academic year's seniors to the class that entered this fall, so nobody picks a class that has
 * already graduated. The date is a parameter so the wizard, the server (with its own clock) and the
 * demo seed ask the same question, and tests can ask it on either side of the turn.
 */

/**
 * The academic year turns on 1 July, in UTC so the browser and the server agree whatever the time
 * zone: commencements are over by then, and the incoming class has its school e-mail over the summer.
 * Month 0-based, as `Date` counts it.
 */
export const ACADEMIC_YEAR_TURN = { month: 6, day: 1 } as const;

/** Seniors, juniors, sophomores and the entering class. */
export const CLASS_YEARS_OFFERED = 4;

/**
 * Any year a stored profile may hold, whatever the date: a class keeps its year after it graduates.
 * The database checks this range (a check cannot follow the calendar); 2025 is the first class ever offered.
 */
export const STORED_CLASS_YEARS = { min: 2025, max: 2100 } as const;

/** The calendar year in which the academic year containing `now` began (2026 for November 2026 and May 2027). */
export function academicYearStart(now: Date): number {
  const year = now.getUTCFullYear();
  const turned =
    now.getUTCMonth() > ACADEMIC_YEAR_TURN.month ||
    (now.getUTCMonth() === ACADEMIC_YEAR_TURN.month && now.getUTCDate() >= ACADEMIC_YEAR_TURN.day);
  return turned ? year : year - 1;
}

/** The class years offered at `now`, seniors first: 2027–2030 from 1 July 2026 to 30 June 2027. */
export function classYearsAt(now: Date): number[] {
  const seniors = academicYearStart(now) + 1;
  return Array.from({ length: CLASS_YEARS_OFFERED }, (_, i) => seniors + i);
}

export function isClassYearOffered(year: number, now: Date): boolean {
  return classYearsAt(now).includes(year);
}

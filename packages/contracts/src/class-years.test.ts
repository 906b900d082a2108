import { describe, expect, it } from "vitest";
import { academicYearStart, classYearsAt, isClassYearOffered } from "./class-years";
import { VALIDATION } from "./messages";
import { signupStepSchemas } from "./signup";
import { expectInvalid, expectValid } from "./test-helpers";
import { GraduationYearSchema, offeredGraduationYearSchema } from "./validation";

/** The class years offered by date (docs/product.md "Signing up and signing in"), with a fixed clock. */
const at = (iso: string) => new Date(iso);

describe("class years offered: this year's seniors to this fall's entering class", () => {
  it.each<[when: string, years: number[]]>([
    // The academic year 2025–26, until its last second in UTC.
    ["2025-07-01T00:00:00.000Z", [2026, 2027, 2028, 2029]],
    ["2026-01-15T12:00:00.000Z", [2026, 2027, 2028, 2029]],
    ["2026-06-30T23:59:59.999Z", [2026, 2027, 2028, 2029]],
    // 1 July 2026: the class of 2026 has graduated and the class of 2030 arrives.
    ["2026-07-01T00:00:00.000Z", [2027, 2028, 2029, 2030]],
    ["2026-11-27T18:00:00.000Z", [2027, 2028, 2029, 2030]],
    ["2027-06-30T23:59:59.999Z", [2027, 2028, 2029, 2030]],
    ["2027-07-01T00:00:00.000Z", [2028, 2029, 2030, 2031]],
  ])("at %s: %j", (when, years) => {
    expect(classYearsAt(at(when))).toEqual(years);
  });

  it("turns in UTC, whatever the local time zone says", () => {
    // 30 June, 20:00 in New York is already 1 July in UTC.
    expect(academicYearStart(at("2026-06-30T20:00:00-04:00"))).toBe(2026);
    expect(academicYearStart(at("2026-07-01T01:00:00+02:00"))).toBe(2025);
  });

  it("offers nothing already graduated and nothing not yet entered", () => {
    const november = at("2026-11-01T00:00:00.000Z");
    expect(isClassYearOffered(2026, november)).toBe(false);
    expect(isClassYearOffered(2027, november)).toBe(true);
    expect(isClassYearOffered(2030, november)).toBe(true);
    expect(isClassYearOffered(2031, november)).toBe(false);
  });
});

describe("the schemas that check a class year", () => {
  it("the offered-year schema reads its clock when it checks", () => {
    let now = at("2026-06-30T23:59:59.999Z");
    const schema = offeredGraduationYearSchema(() => now);
    expect(expectValid(schema, "2026")).toBe(2026);
    expectInvalid(schema, 2030, VALIDATION.graduationYear);
    now = at("2026-07-01T00:00:00.000Z");
    expectInvalid(schema, 2026, VALIDATION.graduationYear);
    expect(expectValid(schema, 2030)).toBe(2030);
  });

  it("the wizard's step offers today's years", () => {
    const [seniors] = classYearsAt(new Date());
    expect(expectValid(signupStepSchemas.graduation, { graduationYear: String(seniors) })).toEqual({
      graduationYear: seniors,
    });
    expect(signupStepSchemas.graduation.safeParse({ graduationYear: seniors! - 1 }).success).toBe(false);
  });

  it("a stored year stays valid after its class graduated: any year the database holds", () => {
    expect(expectValid(GraduationYearSchema, 2025)).toBe(2025);
    expect(expectValid(GraduationYearSchema, 2100)).toBe(2100);
    expectInvalid(GraduationYearSchema, 2024, VALIDATION.graduationYear);
    expectInvalid(GraduationYearSchema, 2101, VALIDATION.graduationYear);
  });
});

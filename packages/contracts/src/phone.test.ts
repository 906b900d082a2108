import { describe, expect, it } from "vitest";
import { FORMATTED_PHONE_LENGTH } from "./constants";
import { formatE164, formatPhoneInput, maskPhone, phoneDigits, toE164 } from "./phone";
import { isUsPhoneNumber, SignupPhoneSchema } from "./phone-numbers";

describe("formatPhoneInput grows as the person types", () => {
  it.each<[input: string, expected: string]>([
    ["", ""],
    ["5", "(5"],
    ["55", "(55"],
    ["555", "(555"],
    ["5555", "(555) 5"],
    ["55555", "(555) 55"],
    ["555555", "(555) 555"],
    ["5555555", "(555) 555-5"],
    ["55555555", "(555) 555-55"],
    ["555555555", "(555) 555-555"],
    ["5555555555", "(555) 555-5555"],
    // extra digits are cut
    ["55555555551", "(555) 555-5555"],
    ["555555555512345", "(555) 555-5555"],
    // a leading country code 1 on an 11-digit entry is dropped
    ["15555555555", "(555) 555-5555"],
    ["+1 (555) 555-0123", "(555) 555-0123"],
    // letters and punctuation are ignored
    ["abc", ""],
    ["5a5b5c5", "(555) 5"],
    ["(555) 555-5555", "(555) 555-5555"],
    ["555.555.5555", "(555) 555-5555"],
    // re-formatting an already formatted prefix is stable (backspacing)
    ["(555) ", "(555"],
    ["(555) 5", "(555) 5"],
  ])("%j → %j", (input, expected) => {
    expect(formatPhoneInput(input)).toBe(expected);
  });

  it("gives the 14-character form for a full number, which the sign-up schema accepts", () => {
    const formatted = formatPhoneInput("2025550123");
    expect(formatted).toHaveLength(14);
    expect(formatted).toHaveLength(FORMATTED_PHONE_LENGTH);
    expect(SignupPhoneSchema.safeParse(formatted).success).toBe(true);
  });

  it("never grows past 14 characters", () => {
    let typed = "";
    for (const digit of "123456789012345") {
      typed = formatPhoneInput(typed + digit);
      expect(typed.length).toBeLessThanOrEqual(FORMATTED_PHONE_LENGTH);
    }
  });
});

describe("phoneDigits", () => {
  it.each<[string, string]>([
    ["(555) 555-5555", "5555555555"],
    ["abc", ""],
    ["+1 555", "1555"],
  ])("%j → %j", (input, expected) => {
    expect(phoneDigits(input)).toBe(expected);
  });
});

describe("toE164: +1 followed by the 10 digits", () => {
  it.each<[string, string]>([
    ["(555) 555-5555", "+15555555555"],
    ["5555550123", "+15555550123"],
    ["555-555-0123", "+15555550123"],
    ["1 (555) 555-0123", "+15555550123"],
    ["+15555550123", "+15555550123"],
  ])("%j → %j", (input, expected) => {
    expect(toE164(input)).toBe(expected);
    expect(toE164(input)).toMatch(/^\+1\d{10}$/);
  });
});

describe("formatE164 and maskPhone", () => {
  it("shows a stored number back in the typed form", () => {
    expect(formatE164("+15555550123")).toBe("(555) 555-0123");
    expect(toE164(formatE164("+15555550123"))).toBe("+15555550123");
  });

  it.each<[string, string]>([
    ["+15555550123", "********0123"],
    ["1234", "****"],
    ["", "****"],
  ])("maskPhone(%j) → %j", (input, expected) => {
    expect(maskPhone(input)).toBe(expected);
  });
});

describe("isUsPhoneNumber: a US number by the numbering plan (libphonenumber-js)", () => {
  it.each([
    "+12025550123", // 555-01XX, set aside for fiction, is valid in real area codes
    "+12125551234",
    "+14155552671",
    "+16175550100",
    "+13105550199",
    "+19415551234",
  ])("accepts %s", (e164) => {
    expect(isUsPhoneNumber(e164)).toBe(true);
  });

  it.each<[e164: string, why: string]>([
    ["+18765551234", "Jamaica shares +1"],
    ["+12685551234", "Antigua and Barbuda shares +1"],
    ["+18095551234", "Dominican Republic"],
    ["+16495551234", "Turks and Caicos"],
    ["+16045551234", "Canada"],
    ["+17875551234", "Puerto Rico is its own region in the plan"],
    ["+10005551234", "area codes never start with 0"],
    ["+11115551234", "area codes never start with 1"],
    ["+15555550123", "555 is not an area code"],
    ["+12995551234", "unassigned area code"],
    ["+12020551234", "exchanges never start with 0"],
    ["+12021551234", "exchanges never start with 1"],
    ["+12115551234", "N11 service codes are not area codes"],
    ["+19005551234", "premium rate"],
    ["+18005551212", "toll free"],
    ["+15005550006", "personal (5XX) numbers"],
    ["+1202555012", "nine digits"],
    ["+120255501234", "eleven digits"],
    ["+442025550123", "another country code"],
    ["", "empty"],
    ["not a number", "text"],
  ])("rejects %s (%s)", (e164) => {
    expect(isUsPhoneNumber(e164)).toBe(false);
  });
});

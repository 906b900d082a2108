import { VALIDATION } from "@quad/contracts";
import { describe, expect, it } from "vitest";
import { basicProfile, EMPTY_SIGNUP_VALUES, validateFieldStep, validatePhotoStep } from "./signup-values";
import { withAtPrefix } from "../ui/profile-fields";

describe("sign-up values", () => {
  it("checks each question step with the product's messages", () => {
    const v = EMPTY_SIGNUP_VALUES;
    expect(validateFieldStep("personal", { ...v, firstName: "A" })).toEqual({ firstName: VALIDATION.firstName });
    expect(validateFieldStep("personal", { ...v, firstName: "Al" })).toBeNull();
    // The server's words for a name nobody can see or that turns the text round, and one without a letter.
    expect(validateFieldStep("personal", { ...v, firstName: "\u200b\u200b\u200b" })).toEqual({
      firstName: VALIDATION.controlCharacters,
    });
    expect(validateFieldStep("personal", { ...v, firstName: "Al\u202eix" })).toEqual({
      firstName: VALIDATION.controlCharacters,
    });
    expect(validateFieldStep("personal", { ...v, firstName: "42" })).toEqual({ firstName: VALIDATION.firstNameLetter });
    expect(validateFieldStep("university", v)).toEqual({ university: VALIDATION.university });
    expect(validateFieldStep("graduation", v)).toEqual({ graduationYear: VALIDATION.graduationYear });
    expect(validateFieldStep("gender", v)).toEqual({ gender: VALIDATION.gender });
    expect(validateFieldStep("instagram", v)).toEqual({ instagramHandle: VALIDATION.instagramRequired });
    expect(validateFieldStep("instagram", { ...v, instagramHandle: `@${"a".repeat(31)}` })).toEqual({
      instagramHandle: VALIDATION.instagramTooLong,
    });
    expect(validateFieldStep("instagram", { ...v, instagramHandle: "@not-ok" })).toEqual({
      instagramHandle: VALIDATION.instagramFormat,
    });
  });

  it("wants a photo, then a previewed crop", () => {
    expect(validatePhotoStep(null, false)).toBe(VALIDATION.profileImage);
    expect(validatePhotoStep(new Blob(["x"]), false)).toBe(VALIDATION.cropPreview);
    expect(validatePhotoStep(new Blob(["x"]), true)).toBeNull();
  });

  it("auto-prefixes one @ to the Instagram handle", () => {
    expect(withAtPrefix("avery")).toBe("@avery");
    expect(withAtPrefix("@@avery")).toBe("@avery");
    expect(withAtPrefix("@")).toBe("");
    expect(withAtPrefix("")).toBe("");
  });

  it("sends the basic fields only once all are there", () => {
    expect(basicProfile(EMPTY_SIGNUP_VALUES)).toBeNull();
    expect(
      basicProfile({
        ...EMPTY_SIGNUP_VALUES,
        firstName: " Avery ",
        university: 2,
        graduationYear: 2027,
        gender: "female",
        instagramHandle: "@avery",
      }),
    ).toEqual({ firstName: "Avery", university: 2, graduationYear: 2027, gender: "female", instagramHandle: "@avery" });
  });
});

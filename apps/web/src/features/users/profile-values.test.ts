import { PROFILE_LIST } from "@quad/contracts";
import { describe, expect, it } from "vitest";
import { firstErrors, validateChanges, type ProfileValues } from "./profile-values";

const values: ProfileValues = {
  firstName: "Ana",
  instagramHandle: "",
  organizations: ["Chess Club"],
  interests: ["Hiking", "x".repeat(PROFILE_LIST.maxLength + 1)],
  emojis: [],
};

describe("profile errors", () => {
  it("names the chip a list error is about, with the schema's message", () => {
    const errors = validateChanges({ interests: values.interests }, values);
    expect(errors).toEqual({
      interests: `“${values.interests[1]}”: Keep each one to ${PROFILE_LIST.maxLength} characters or fewer`,
    });
  });

  it("names the chip in the server's field errors too, and leaves whole-field errors as they are", () => {
    expect(firstErrors({ "organizations.0": ["Too long"], firstName: ["First name is required"] }, values)).toEqual({
      organizations: "“Chess Club”: Too long",
      firstName: "First name is required",
    });
  });
});

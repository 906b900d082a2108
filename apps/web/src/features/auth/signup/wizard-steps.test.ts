import { describe, expect, it } from "vitest";
import { createMeUser } from "../../../test/msw";
import {
  canGoBack,
  firstMissingStep,
  mainButtonLabel,
  nextStep,
  previousStep,
  resumeStep,
  WIZARD_STEPS,
} from "./wizard-steps";

describe("the sign-up step machine", () => {
  it("has the product's seven steps in order", () => {
    expect(WIZARD_STEPS).toEqual([
      "personal",
      "university",
      "graduation",
      "gender",
      "instagram",
      "phone",
      "profileImage",
    ]);
  });

  it("disables Back on the first step and on the image step only", () => {
    expect(WIZARD_STEPS.filter((step) => !canGoBack(step))).toEqual(["personal", "profileImage"]);
  });

  it("goes back one step, except from the image step, which skips the phone step to instagram", () => {
    expect(previousStep("personal")).toBeNull();
    expect(previousStep("university")).toBe("personal");
    expect(previousStep("phone")).toBe("instagram");
    expect(previousStep("profileImage")).toBe("instagram");
  });

  it("goes forward one step; signed-in students skip the phone step", () => {
    expect(nextStep("personal", { signedIn: false })).toBe("university");
    expect(nextStep("instagram", { signedIn: false })).toBe("phone");
    expect(nextStep("instagram", { signedIn: true })).toBe("profileImage");
    expect(nextStep("phone", { signedIn: false })).toBe("profileImage");
    expect(nextStep("profileImage", { signedIn: true })).toBeNull();
  });

  it("labels the main button Next, Verify Code, Verifying..., Complete, Creating Account...", () => {
    expect(WIZARD_STEPS.slice(0, 5).map((step) => mainButtonLabel(step, false))).toEqual(Array(5).fill("Next"));
    expect(mainButtonLabel("phone", false)).toBe("Verify Code");
    expect(mainButtonLabel("phone", true)).toBe("Verifying...");
    expect(mainButtonLabel("profileImage", false)).toBe("Complete");
    expect(mainButtonLabel("profileImage", true)).toBe("Creating Account...");
  });

  describe("where the wizard opens", () => {
    const unverified = createMeUser({ isVerified: false, profileImage: null });

    it("visitors start where the route says (/signup: personal, /opt-in: phone)", () => {
      expect(resumeStep({ startAt: "personal", signedIn: false, user: null })).toBe("personal");
      expect(resumeStep({ startAt: "phone", signedIn: false, user: null })).toBe("phone");
    });

    it("a signed-in student with an unverified, complete profile resumes at the image step", () => {
      expect(resumeStep({ startAt: "personal", signedIn: true, user: unverified })).toBe("profileImage");
      expect(resumeStep({ startAt: "phone", signedIn: true, user: unverified })).toBe("profileImage");
    });

    it("a signed-in student missing a field resumes at that field's step; without a profile at the start", () => {
      expect(resumeStep({ startAt: "personal", signedIn: true, user: { ...unverified, gender: null } })).toBe("gender");
      expect(resumeStep({ startAt: "phone", signedIn: true, user: null })).toBe("personal");
      expect(firstMissingStep({ ...unverified, firstName: null, instagramHandle: null })).toBe("personal");
    });
  });
});

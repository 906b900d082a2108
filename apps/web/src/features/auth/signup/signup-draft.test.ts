import { beforeEach, describe, expect, it } from "vitest";
import { clearSignupDraft, loadSignupDraft, saveSignupDraft } from "./signup-draft";
import { EMPTY_SIGNUP_VALUES } from "./signup-values";

const answered = {
  ...EMPTY_SIGNUP_VALUES,
  firstName: "Ana",
  university: 3,
  graduationYear: 2027,
  smsConsent: true,
  termsAccepted: true,
};

describe("the sign-up draft", () => {
  beforeEach(() => sessionStorage.clear());

  it("comes back with the step and answers, but never the consents", () => {
    saveSignupDraft("graduation", answered);
    expect(loadSignupDraft()).toEqual({
      step: "graduation",
      values: { ...answered, smsConsent: false, termsAccepted: false },
    });
    expect(sessionStorage.getItem("quad.signup-draft")).not.toMatch(/consent|terms|phone|code/i);
  });

  it("cannot skip a question: a later step with an earlier answer missing resumes at that answer", () => {
    saveSignupDraft("instagram", { ...answered, university: null });
    expect(loadSignupDraft()?.step).toBe("university");
  });

  it("stops at the phone step (the photo needs a session), and ignores what it cannot read", () => {
    saveSignupDraft("profileImage", { ...answered, gender: "female", instagramHandle: "@ana" });
    expect(loadSignupDraft()?.step).toBe("phone");
    sessionStorage.setItem("quad.signup-draft", "{not json");
    expect(loadSignupDraft()).toBeNull();
    sessionStorage.setItem("quad.signup-draft", JSON.stringify({ step: "admin", values: {} }));
    expect(loadSignupDraft()).toBeNull();
    clearSignupDraft();
    expect(loadSignupDraft()).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { INLINE, SCREEN_TEXT, SMS_CONSENT_TEXT, TOASTS, VALIDATION } from "./messages";

/** The texts are the product: each is compared with the product's literal wording. */
describe("docs/product.md validation messages", () => {
  it.each<[key: keyof typeof VALIDATION, literal: string]>([
    ["loginPhone", "Invalid phone number"],
    ["loginCode", "Please enter the verification code"],
    ["firstName", "First name is required"],
    ["university", "Please select a university"],
    ["graduationYear", "Graduation year is required"],
    ["gender", "Please select your gender"],
    ["instagramRequired", "Instagram handle is required"],
    ["instagramTooLong", "Instagram handle cannot exceed 30 characters"],
    ["instagramFormat", "Invalid Instagram handle format"],
    ["signupPhoneMin", "Phone number must be at least 10 digits"],
    ["signupPhoneExact", "Phone number must be exactly 10 digits"],
    ["acceptPrivacy", "You must accept the terms and conditions"],
    ["profileImage", "Please upload a profile image"],
    ["cropPreview", "Please preview your image first"],
  ])("%s is %j", (key, literal) => {
    expect(VALIDATION[key]).toBe(literal);
  });
});

describe("docs/product.md error catalogue", () => {
  const toasts = Object.values(TOASTS) as string[];
  it.each([
    "Authentication failed",
    "No such user exists!",
    "Verification code sent!",
    "Successfully logged in!",
    "Please complete your profile!",
    "Phone number verified!",
    "Failed to send verification code",
    "Invalid verification code",
    "Failed to create account",
    "Account created successfully!",
    "Failed to process request",
    "Please upload a profile image",
    "Please preview your image first",
    "Please enter the verification code",
    "No token found. Please log in.",
    "Failed to load votes",
    "Payment successful!",
    "Stripe is not loaded",
    "Payment failed",
    "An unexpected error occurred",
    "Failed to fetch user information.",
    "Profile unlocked! 🎉",
    "Vote sent 🤩",
    "Failed to submit vote",
    "Failed to unlock user",
    "Failed to load prompt",
    // docs/product.md failure texts
    "Failed to fetch schools. Please try again later.",
    "Failed to fetch prompt",
    "Failed to create payment intent",
  ])("toast %j exists", (literal) => {
    expect(toasts).toContain(literal);
  });

  it("has the inline texts", () => {
    expect(INLINE.fetchUniversitiesFailed).toBe("Failed to fetch universities.");
    expect(INLINE.loadPaymentDetailsFailed).toBe("Failed to load payment details. Please try again.");
  });
});

describe("docs/product.md screen texts", () => {
  it.each<[key: keyof typeof SCREEN_TEXT, literal: string]>([
    ["whoDoYouWantToSee", "Who do you want to see?"],
    ["joinToStartVoting", "Join to start voting"],
    ["seeWhoVotedForYou", "See who voted for you"],
    ["noStudents", "No students found, check back later."],
    ["outOfVotesTitle", "Out of Votes"],
    ["outOfVotesBody", "Come back in one hour for more votes!"],
    ["outOfSkipsTitle", "Out of Skips"],
    ["outOfSkipsBody", "Submit a vote to get more skips!"],
    ["votedOnYou", "Voted on you"],
    ["loadingVotes", "Loading votes..."],
    ["noVotesTitle", "No votes found"],
    ["noVotesBody", "It seems like there are no votes available. Check back later!"],
    ["votedOnYouFor", "Voted on you for:"],
    ["unlockDetails", "Unlock Details"],
    ["useUnlockCredit", "Use Unlock Credit?"],
    ["boostTagline", "Get seen by 5x more people"],
  ])("%s is %j", (key, literal) => {
    expect(SCREEN_TEXT[key]).toBe(literal);
  });

  it("SMS consent states frequency, rates, STOP and HELP (docs/product.md)", () => {
    expect(SMS_CONSENT_TEXT).toMatch(/frequency varies/i);
    expect(SMS_CONSENT_TEXT).toMatch(/rates may apply/i);
    expect(SMS_CONSENT_TEXT).toContain("STOP");
    expect(SMS_CONSENT_TEXT).toContain("HELP");
  });
});

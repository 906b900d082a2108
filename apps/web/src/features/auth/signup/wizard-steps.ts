import { SIGNUP_STEPS, type MeUser, type SignupStep } from "@quad/contracts";

/**
 * The sign-up wizard's step machine (docs/product.md "In the app"):
 * which step comes next, which one Back goes to, where a returning student
 * resumes, and what the main button says. Pure, so the rules are tested
 * without rendering anything.
 */

export const WIZARD_STEPS = SIGNUP_STEPS;
export type WizardStep = SignupStep;

/** The profile fields the wizard collects before the phone step. */
export const BASIC_FIELDS = ["firstName", "university", "graduationYear", "gender", "instagramHandle"] as const;
export type BasicField = (typeof BASIC_FIELDS)[number];

/** The step that asks for each basic field. */
export const STEP_OF_FIELD: Record<BasicField, WizardStep> = {
  firstName: "personal",
  university: "university",
  graduationYear: "graduation",
  gender: "gender",
  instagramHandle: "instagram",
};

export function stepNumber(step: WizardStep): number {
  return WIZARD_STEPS.indexOf(step) + 1;
}

/** Back is disabled on the first step and on the image step. */
export function canGoBack(step: WizardStep): boolean {
  return step !== WIZARD_STEPS[0] && step !== "profileImage";
}

/**
 * Where Back leads. From the image step it skips the phone step (the phone is
 * verified by then) and lands on instagram; the UI keeps Back disabled there,
 * but the rule stands should that ever change.
 */
export function previousStep(step: WizardStep): WizardStep | null {
  if (step === "profileImage") return "instagram";
  const index = WIZARD_STEPS.indexOf(step);
  return index > 0 ? WIZARD_STEPS[index - 1]! : null;
}

/**
 * Where Next leads. A student who is already signed in (their phone is
 * verified) goes from instagram straight to the photo: the phone step is done.
 */
export function nextStep(step: WizardStep, { signedIn }: { signedIn: boolean }): WizardStep | null {
  if (step === "instagram" && signedIn) return "profileImage";
  const index = WIZARD_STEPS.indexOf(step);
  return index < WIZARD_STEPS.length - 1 ? WIZARD_STEPS[index + 1]! : null;
}

/** The first basic field a stored profile still lacks, if any. */
export function firstMissingStep(user: Pick<MeUser, BasicField>): WizardStep | null {
  const missing = BASIC_FIELDS.find((field) => user[field] === null || user[field] === "");
  return missing ? STEP_OF_FIELD[missing] : null;
}

export interface ResumeInput {
  /** `/opt-in` opens at the phone step. */
  startAt: WizardStep;
  signedIn: boolean;
  /** The stored profile, once known; null when there is none yet. */
  user: Pick<MeUser, BasicField | "isVerified"> | null;
}

/**
 * The step the wizard opens at. Visitors start where the route says. A
 * signed-in student whose profile is not verified resumes at the image step,
 * or at the first step still missing a field; one signed in without any
 * profile yet starts at the first step (their phone is already verified).
 */
export function resumeStep({ startAt, signedIn, user }: ResumeInput): WizardStep {
  if (!signedIn) return startAt;
  if (!user) return WIZARD_STEPS[0];
  return firstMissingStep(user) ?? "profileImage";
}

/** The main button's label: Next, Verify Code, Verifying..., Complete or Creating Account.... */
export function mainButtonLabel(step: WizardStep, busy: boolean): string {
  if (step === "phone") return busy ? "Verifying..." : "Verify Code";
  if (step === "profileImage") return busy ? "Creating Account..." : "Complete";
  return "Next";
}

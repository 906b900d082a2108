import {
  normalizeInstagramHandle,
  signupStepSchemas,
  type Gender,
  type MeUser,
  type ProfileUpdateInput,
} from "@quad/contracts";
import type { WizardStep } from "./wizard-steps";

/** What the wizard has collected so far. */
export interface SignupValues {
  firstName: string;
  university: number | null;
  graduationYear: number | null;
  gender: Gender | null;
  instagramHandle: string;
  smsConsent: boolean;
  termsAccepted: boolean;
}

export type SignupField =
  Exclude<keyof SignupValues, "smsConsent" | "termsAccepted"> | "phone" | "code" | "profileImage";
export type SignupErrors = Partial<Record<SignupField, string>>;

export const EMPTY_SIGNUP_VALUES: SignupValues = {
  firstName: "",
  university: null,
  graduationYear: null,
  gender: null,
  instagramHandle: "",
  smsConsent: false,
  termsAccepted: false,
};

/** Pre-fills the wizard from a stored (unfinished) profile. */
export function valuesFromUser(user: MeUser | null): SignupValues {
  if (!user) return EMPTY_SIGNUP_VALUES;
  return {
    ...EMPTY_SIGNUP_VALUES,
    firstName: user.firstName ?? "",
    university: user.university,
    graduationYear: user.graduationYear,
    gender: user.gender,
    instagramHandle: user.instagramHandle ?? "",
  };
}

type FieldStep = Extract<WizardStep, "personal" | "university" | "graduation" | "gender" | "instagram">;

const STEP_INPUT: Record<FieldStep, (values: SignupValues) => Record<string, unknown>> = {
  personal: (v) => ({ firstName: v.firstName }),
  university: (v) => ({ university: v.university ?? undefined }),
  graduation: (v) => ({ graduationYear: v.graduationYear ?? undefined }),
  gender: (v) => ({ gender: v.gender ?? undefined }),
  instagram: (v) => ({ instagramHandle: v.instagramHandle }),
};

export function isFieldStep(step: WizardStep): step is FieldStep {
  return step in STEP_INPUT;
}

/** Checks one question step with the contracts' step schema; null when it passes. */
export function validateFieldStep(step: FieldStep, values: SignupValues): SignupErrors | null {
  const result = signupStepSchemas[step].safeParse(STEP_INPUT[step](values));
  if (result.success) return null;
  const errors: SignupErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]) as SignupField;
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Checks the photo step: a photo, then a previewed crop. Null when it passes. */
export function validatePhotoStep(photo: Blob | null, previewed: boolean): string | null {
  const result = signupStepSchemas.profileImage.safeParse({
    profileImage: photo ?? undefined,
    cropPreviewed: previewed || undefined,
  });
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/** The basic fields as users.update takes them, or null while any is missing. */
export function basicProfile(values: SignupValues): ProfileUpdateInput | null {
  const { firstName, university, graduationYear, gender, instagramHandle } = values;
  if (!firstName.trim() || university === null || graduationYear === null || gender === null || !instagramHandle) {
    return null;
  }
  return {
    firstName: firstName.trim(),
    university,
    graduationYear,
    gender,
    instagramHandle: normalizeInstagramHandle(instagramHandle),
  };
}

import { GENDERS } from "@quad/contracts";
import { z } from "zod";
import { EMPTY_SIGNUP_VALUES, isFieldStep, validateFieldStep, type SignupValues } from "./signup-values";
import { WIZARD_STEPS, type WizardStep } from "./wizard-steps";

/**
 * A visitor's answers before the phone is verified, kept in sessionStorage so
 * a reload (or a phone that dropped the tab) comes back to the same step with
 * the same answers. Never the phone, the code or the consents: the number is
 * typed again and the checkboxes are ticked again, on purpose. Once the phone
 * is verified the server holds the profile and the draft is dropped.
 */
const KEY = "quad.signup-draft";

const Draft = z.object({
  step: z.enum(WIZARD_STEPS),
  values: z.object({
    firstName: z.string().max(200),
    university: z.number().int().nullable(),
    graduationYear: z.number().int().nullable(),
    gender: z.enum(GENDERS).nullable(),
    instagramHandle: z.string().max(200),
  }),
});

export interface SignupDraft {
  step: WizardStep;
  values: SignupValues;
}

/** The saved draft, at the furthest step its answers allow (a tampered or stale draft cannot skip a question). */
export function loadSignupDraft(storage: Storage | undefined = globalThis.sessionStorage): SignupDraft | null {
  let parsed;
  try {
    parsed = Draft.safeParse(JSON.parse(storage?.getItem(KEY) ?? "null"));
  } catch {
    return null;
  }
  if (!parsed.success) return null;
  const values: SignupValues = { ...EMPTY_SIGNUP_VALUES, ...parsed.data.values };
  let step: WizardStep = WIZARD_STEPS[0];
  for (const candidate of WIZARD_STEPS) {
    step = candidate;
    // The image step needs a session; a visitor's draft stops at the phone at most.
    if (candidate === parsed.data.step || candidate === "phone") break;
    if (isFieldStep(candidate) && validateFieldStep(candidate, values)) break;
  }
  return { step, values };
}

export function saveSignupDraft(
  step: WizardStep,
  values: SignupValues,
  storage: Storage | undefined = globalThis.sessionStorage,
): void {
  const { firstName, university, graduationYear, gender, instagramHandle } = values;
  try {
    storage?.setItem(
      KEY,
      JSON.stringify({ step, values: { firstName, university, graduationYear, gender, instagramHandle } }),
    );
  } catch {
    // Storage full or refused (private mode): the wizard works as before, without surviving a reload.
  }
}

export function clearSignupDraft(storage: Storage | undefined = globalThis.sessionStorage): void {
  try {
    storage?.removeItem(KEY);
  } catch {
    // nothing stored, nothing to clear
  }
}

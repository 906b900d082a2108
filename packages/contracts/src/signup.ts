import { z } from "zod";
import { FORMATTED_PHONE_LENGTH } from "./constants";
import { SignupPhoneSchema } from "./phone-numbers";
import {
  AcceptPrivacySchema,
  CropPreviewedSchema,
  FirstNameSchema,
  GenderSchema,
  offeredGraduationYearSchema,
  InstagramHandleSchema,
  ProfileImageSchema,
  UniversitySchema,
} from "./validation";

/** Send Code needs both consents and the fully formatted number (docs/product.md). */
export function canSendSignupCode(input: { formattedPhone: string; smsConsent: boolean; termsAccepted: boolean }) {
  return input.smsConsent && input.termsAccepted && input.formattedPhone.length === FORMATTED_PHONE_LENGTH;
}

// ── The sign-up wizard ───────────────────────────────────────────────────
export const SIGNUP_STEPS = [
  "personal",
  "university",
  "graduation",
  "gender",
  "instagram",
  "phone",
  "profileImage",
] as const;
export type SignupStep = (typeof SIGNUP_STEPS)[number];

export const signupStepSchemas = {
  personal: z.object({ firstName: FirstNameSchema }),
  university: z.object({ university: UniversitySchema }),
  graduation: z.object({ graduationYear: offeredGraduationYearSchema() }),
  gender: z.object({ gender: GenderSchema }),
  instagram: z.object({ instagramHandle: InstagramHandleSchema }),
  phone: z.object({ phone: SignupPhoneSchema }),
  profileImage: z.object({ profileImage: ProfileImageSchema, cropPreviewed: CropPreviewedSchema }),
} as const satisfies Record<SignupStep, z.ZodType>;

/** The whole form, with the defaults docs/product.md lists (only some fields are sent). */
export const SignupFormSchema = z.object({
  firstName: FirstNameSchema,
  university: UniversitySchema,
  graduationYear: offeredGraduationYearSchema(),
  gender: GenderSchema,
  instagramHandle: InstagramHandleSchema,
  phone: SignupPhoneSchema,
  studentOrganization: z.string().default(""),
  interests: z.string().default(""),
  verificationCode: z.string().default(""),
  acceptPrivacy: AcceptPrivacySchema,
});

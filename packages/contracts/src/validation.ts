import { z } from "zod";
import { FORMATTED_PHONE_LENGTH, GENDERS, GRADUATION_YEARS, INSTAGRAM_MAX_LENGTH, PHONE_DIGITS } from "./constants";
import { VALIDATION } from "./messages";
import { phoneDigits } from "./phone";

/** Spec §5, one schema per rule, each carrying the table's exact message. */

export const GenderSchema = z.enum(GENDERS, { error: VALIDATION.gender });
export const PreferenceSchema = z.enum(GENDERS, { error: "Preference must be male or female" });

// ── Login ────────────────────────────────────────────────────────────────
export const LoginPhoneSchema = z.string({ error: VALIDATION.loginPhone }).min(10, VALIDATION.loginPhone);

/** The code is optional in the schema; it is required once the code step is active. */
export function loginFormSchema(opts: { codeStepActive: boolean }) {
  return z
    .object({ phone: LoginPhoneSchema, code: z.string().optional() })
    .superRefine((value, ctx) => {
      if (opts.codeStepActive && !value.code?.trim()) {
        ctx.addIssue({ code: "custom", path: ["code"], message: VALIDATION.loginCode });
      }
    });
}

// ── Sign-up fields ───────────────────────────────────────────────────────
export const FirstNameSchema = z
  .string({ error: VALIDATION.firstName })
  .trim()
  .min(2, VALIDATION.firstName)
  .max(50, "First name cannot exceed 50 characters");

/** School ids are positive integers; form values arrive as text. */
export const UniversitySchema = z.coerce
  .number<unknown>({ error: VALIDATION.university })
  .int(VALIDATION.university)
  .min(1, VALIDATION.university);

export const GraduationYearSchema = z.coerce
  .number<unknown>({ error: VALIDATION.graduationYear })
  .int(VALIDATION.graduationYear)
  .refine((year) => (GRADUATION_YEARS as readonly number[]).includes(year), VALIDATION.graduationYear);

/** Strips any @ the person typed and puts exactly one in front (spec §5: auto-prefixed). */
export function normalizeInstagramHandle(input: string): string {
  const bare = input.trim().replace(/^@+/, "");
  return bare ? `@${bare}` : "";
}

/**
 * The 30-character limit counts the handle itself, not the @ we add,
 * matching Instagram's own limit on usernames.
 */
export const InstagramHandleSchema = z
  .string({ error: VALIDATION.instagramRequired })
  .transform(normalizeInstagramHandle)
  .pipe(
    z
      .string()
      // abort: an empty handle is "required", not also "invalid format".
      .min(1, { error: VALIDATION.instagramRequired, abort: true })
      .max(INSTAGRAM_MAX_LENGTH + 1, VALIDATION.instagramTooLong)
      .regex(/^@?[A-Za-z0-9_.]+$/, VALIDATION.instagramFormat),
  );

/** The sign-up phone as typed, "(555) 555-5555". */
export const SignupPhoneSchema = z
  .string({ error: VALIDATION.signupPhoneMin })
  // abort: a too-short number gets the "at least" message only, not also "exactly".
  .min(PHONE_DIGITS, { error: VALIDATION.signupPhoneMin, abort: true })
  .refine((value) => phoneDigits(value).length === PHONE_DIGITS, VALIDATION.signupPhoneExact);

/** Send Code needs both consents and the fully formatted number (spec §5). */
export function canSendSignupCode(input: { formattedPhone: string; smsConsent: boolean; termsAccepted: boolean }) {
  return input.smsConsent && input.termsAccepted && input.formattedPhone.length === FORMATTED_PHONE_LENGTH;
}

export const AcceptPrivacySchema = z.literal(true, { error: VALIDATION.acceptPrivacy });

/** A verification code as the server accepts it. */
export const VerificationCodeSchema = z
  .string({ error: VALIDATION.loginCode })
  .trim()
  // abort: an empty code is "please enter", not also "wrong format".
  .min(1, { error: VALIDATION.loginCode, abort: true })
  .regex(/^\d{6}$/, VALIDATION.verificationCodeFormat);

/** +1 and ten digits: the only phone form the server accepts. */
export const E164PhoneSchema = z
  .string({ error: VALIDATION.loginPhone })
  .regex(/^\+1\d{10}$/, VALIDATION.loginPhone);

export const ProfileImageSchema = z.instanceof(Blob, { error: VALIDATION.profileImage });
export const CropPreviewedSchema = z.literal(true, { error: VALIDATION.cropPreview });

// ── The sign-up wizard ───────────────────────────────────────────────────
export const SIGNUP_STEPS = ["personal", "university", "graduation", "gender", "instagram", "phone", "profileImage"] as const;
export type SignupStep = (typeof SIGNUP_STEPS)[number];

export const signupStepSchemas = {
  personal: z.object({ firstName: FirstNameSchema }),
  university: z.object({ university: UniversitySchema }),
  graduation: z.object({ graduationYear: GraduationYearSchema }),
  gender: z.object({ gender: GenderSchema }),
  instagram: z.object({ instagramHandle: InstagramHandleSchema }),
  phone: z.object({ phone: SignupPhoneSchema }),
  profileImage: z.object({ profileImage: ProfileImageSchema, cropPreviewed: CropPreviewedSchema }),
} as const satisfies Record<SignupStep, z.ZodType>;

/** The whole form, with the defaults the spec lists (only some fields are sent). */
export const SignupFormSchema = z.object({
  firstName: FirstNameSchema,
  university: UniversitySchema,
  graduationYear: GraduationYearSchema,
  gender: GenderSchema,
  instagramHandle: InstagramHandleSchema,
  phone: SignupPhoneSchema,
  studentOrganization: z.string().default(""),
  interests: z.string().default(""),
  verificationCode: z.string().default(""),
  acceptPrivacy: AcceptPrivacySchema,
});

// ── Profile update (PATCH /users/update) ─────────────────────────────────
/** Organizations and interests: a few short entries each. */
export const PROFILE_LIST = { maxItems: 10, maxLength: 40 } as const;
const ShortTextList = z
  .array(
    z
      .string()
      .trim()
      .min(1, "Entries can't be empty")
      .max(PROFILE_LIST.maxLength, `Keep each one under ${PROFILE_LIST.maxLength} characters`),
  )
  .max(PROFILE_LIST.maxItems, `Add up to ${PROFILE_LIST.maxItems}`);
/** Emojis shown on an unlocked profile. */
export const MAX_EMOJIS = 3;
const EmojiList = z
  .array(z.string().min(1).max(16).regex(/^\p{Extended_Pictographic}/u, "Choose an emoji"))
  .max(MAX_EMOJIS, `Choose up to ${MAX_EMOJIS} emojis`);

/** Multipart form values are text; "true"/"false" become booleans. */
export const BooleanText = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]);

/**
 * Every field is optional: the first call creates the profile, later calls
 * change what they name. `isVerified` is a request the server checks, never
 * a value it stores as sent. The photo travels as a file beside these.
 */
export const ProfileUpdateSchema = z
  .object({
    firstName: FirstNameSchema,
    university: UniversitySchema,
    graduationYear: GraduationYearSchema,
    instagramHandle: InstagramHandleSchema,
    gender: GenderSchema,
    preference: PreferenceSchema,
    isVerified: BooleanText,
    organizations: ShortTextList,
    interests: ShortTextList,
    emojis: EmojiList,
  })
  .partial()
  .strict();
export type ProfileUpdateInput = z.input<typeof ProfileUpdateSchema>;
export type ProfileUpdate = z.output<typeof ProfileUpdateSchema>;

/** Turns a failed parse into `{field: [messages]}` for `fieldErrors`. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

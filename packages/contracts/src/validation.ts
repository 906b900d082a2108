import { z } from "zod";
import { isClassYearOffered, STORED_CLASS_YEARS } from "./class-years";
import { AUTH_CODE, GENDERS, INSTAGRAM_MAX_LENGTH } from "./constants";
import { INT4_MAX } from "./common";
import { VALIDATION } from "./messages";

/** The input rules (docs/product.md "Signing up and signing in"), one schema per rule, each carrying its exact message. */

export const GenderSchema = z.enum(GENDERS, { error: VALIDATION.gender });
export const PreferenceSchema = z.enum(GENDERS, { error: "Preference must be male or female" });

// ── Text a person types ──────────────────────────────────────────────────
/**
 * Control characters: C0 but tab, line feed and carriage return, DEL, C1.
 * Nothing a person types; pasted, they hide in what others read, and
 * Postgres refuses NUL in text outright. Every input string is checked
 * against this at the API's edge; typed fields say it in their own message.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/**
 * How deeply a procedure's JSON input may nest: no schema goes past a few
 * levels, and the edge walks inputs no deeper than this before any schema.
 */
export const MAX_INPUT_DEPTH = 32;
/** The same, and line breaks and tabs: for fields of one line. */
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_OR_LINE_BREAK = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * Characters that draw nothing (Unicode's Default_Ignorable_Code_Point: the format characters such
 * as zero-width spaces and direction overrides, the Hangul fillers, the combining grapheme joiner,
 * variation selectors, tags). Invisible, they make a name look empty, copy a classmate's name
 * ("Av\u034Fery"), or turn round whatever follows (U+202E) wherever it is shown. Spared where
 * writing needs them: a zero-width joiner inside an emoji sequence (a woman and a laptop), a joiner
 * or non-joiner between letters of the scripts that use them (Arabic, Persian, the Indic scripts),
 * a variation selector after an emoji or a keycap's digit, and the tags that follow a black flag to
 * make a subdivision's flag (Scotland's, Wales').
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const JOINING_SCRIPTS =
  "\\p{Script=Arabic}\\p{Script=Syriac}\\p{Script=Devanagari}\\p{Script=Bengali}\\p{Script=Gurmukhi}\\p{Script=Gujarati}\\p{Script=Oriya}\\p{Script=Tamil}\\p{Script=Telugu}\\p{Script=Kannada}\\p{Script=Malayalam}\\p{Script=Sinhala}";
const JOINER_IN_WORD = new RegExp(`(?<=[${JOINING_SCRIPTS}\\p{M}])[\\u200C\\u200D](?=[${JOINING_SCRIPTS}])`, "gu");
const JOINER_IN_EMOJI =
  /(?<=\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|\uFE0F)\u200D(?=\p{Extended_Pictographic})/gu;
const EMOJI_VARIATION = /(?<=[\p{Extended_Pictographic}0-9#*])[\uFE0E\uFE0F]/gu;
const FLAG_TAGS = /(?<=\u{1F3F4})[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
const hasInvisibleCharacter = (text: string) =>
  INVISIBLE.test(
    text.replace(FLAG_TAGS, "").replace(JOINER_IN_EMOJI, "").replace(EMOJI_VARIATION, "").replace(JOINER_IN_WORD, ""),
  );

/**
 * A string of one line with no control or format characters: every single-line field a person
 * types is one, so each refuses them with its own field error, on the form and the server alike.
 */
export const oneLineText = (options?: { error?: string }) =>
  z
    .string(options)
    .refine((text) => !CONTROL_OR_LINE_BREAK.test(text), VALIDATION.controlCharacters)
    .refine((text) => !hasInvisibleCharacter(text), VALIDATION.controlCharacters);
/** A string that may break lines, with no other control characters. */
export const multiLineText = (options?: { error?: string }) =>
  z.string(options).refine((text) => !CONTROL_CHARACTERS.test(text), VALIDATION.controlCharacters);

// ── Sign-up fields ───────────────────────────────────────────────────────
export const FirstNameSchema = oneLineText({ error: VALIDATION.firstName })
  .trim()
  // abort: a name too short is "required", not also "needs a letter".
  .min(2, { error: VALIDATION.firstName, abort: true })
  .max(50, "First name cannot exceed 50 characters")
  // Digits, punctuation or emoji alone are no name.
  .refine((name) => /\p{L}/u.test(name), VALIDATION.firstNameLetter);

/** School ids are positive integers; form values arrive as text. */
export const UniversitySchema = z.coerce
  .number<unknown>({ error: VALIDATION.university })
  .int(VALIDATION.university)
  .min(1, VALIDATION.university)
  // abort: past the column's range it is no school; the id is never looked up.
  .max(INT4_MAX, { error: VALIDATION.university, abort: true });

/**
 * A class year a profile may hold (the database's range). Which ones a student may choose depends on
 * the date: the wizard checks that with `offeredGraduationYearSchema`, the server with its own clock.
 */
export const GraduationYearSchema = z.coerce
  .number<unknown>({ error: VALIDATION.graduationYear })
  .int(VALIDATION.graduationYear)
  .min(STORED_CLASS_YEARS.min, { error: VALIDATION.graduationYear, abort: true })
  .max(STORED_CLASS_YEARS.max, { error: VALIDATION.graduationYear, abort: true });

/** One of the class years offered at `now()` (class-years.ts), read when a value is checked. */
export const offeredGraduationYearSchema = (now: () => Date = () => new Date()) =>
  GraduationYearSchema.refine((year) => isClassYearOffered(year, now()), VALIDATION.graduationYear);

/** Strips any @ the person typed and puts exactly one in front (docs/product.md: auto-prefixed). */
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

export const AcceptPrivacySchema = z.literal(true, { error: VALIDATION.acceptPrivacy });

/** A verification code as the server accepts it. */
export const VerificationCodeSchema = z
  .string({ error: VALIDATION.loginCode })
  .trim()
  // abort: an empty code is "please enter", not also "wrong format".
  .min(1, { error: VALIDATION.loginCode, abort: true })
  .regex(/^\d{6}$/, VALIDATION.verificationCodeFormat);

/** The opaque value send-code answers and the check presents (AUTH_CODE.requestIdLength base64url characters). */
export const CodeRequestIdSchema = z
  .string({ error: VALIDATION.codeRequestId })
  .regex(new RegExp(`^[A-Za-z0-9_-]{${AUTH_CODE.requestIdLength}}$`), VALIDATION.codeRequestId);

export const ProfileImageSchema = z.instanceof(Blob, { error: VALIDATION.profileImage });
export const CropPreviewedSchema = z.literal(true, { error: VALIDATION.cropPreview });

// ── Profile update (PATCH /users/update) ─────────────────────────────────
/** Organizations and interests: a few short entries each. */
export const PROFILE_LIST = { maxItems: 10, maxLength: 40 } as const;
const ShortTextList = z
  .array(
    oneLineText()
      .trim()
      .min(1, "Entries can't be empty")
      .max(PROFILE_LIST.maxLength, `Keep each one to ${PROFILE_LIST.maxLength} characters or fewer`),
  )
  .max(PROFILE_LIST.maxItems, `Add up to ${PROFILE_LIST.maxItems}`);
/** Emojis shown on an unlocked profile. */
export const MAX_EMOJIS = 3;
const EmojiList = z
  .array(
    oneLineText()
      .min(1)
      .max(16)
      .regex(/^\p{Extended_Pictographic}/u, "Choose an emoji"),
  )
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

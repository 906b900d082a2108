import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";
import { z } from "zod";
import { PHONE_DIGITS } from "./constants";
import { VALIDATION } from "./messages";
import { phoneDigits, toE164 } from "./phone";

// Which phone numbers Quad accepts, for the client's forms and the server
// alike. A module of its own because it carries the numbering plan's
// metadata (about 24 kB gzip): only the screens that take a number load it.

/**
 * A US number that can receive a text, by the numbering plan as
 * libphonenumber-js knows it (its "mobile" metadata, in which US numbers are
 * "fixed line or mobile"). +1 is shared by Canada and the Caribbean (+1 876
 * Jamaica, +1 268 Antigua: premium destinations for SMS pumping), so the
 * region must be US; impossible area codes and exchanges (+1 000, +1 111,
 * +1 555, x11), toll-free, premium-rate (+1 900) and personal (+1 5XX)
 * numbers are not valid here. Expects E.164 ("+12025550123").
 */
export function isUsPhoneNumber(e164: string): boolean {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.country === "US" && parsed.isValid();
}

/** Ten typed digits that make a valid US number: the server's rule (E164PhoneSchema) on the typed form. */
const isTypedUsPhone = (typed: string) => phoneDigits(typed).length === PHONE_DIGITS && isUsPhoneNumber(toE164(typed));

// ── Login ────────────────────────────────────────────────────────────────
/** At least 10 characters (docs/product.md), and a number the server will text. */
export const LoginPhoneSchema = z
  .string({ error: VALIDATION.loginPhone })
  // abort: a short entry gets the message once.
  .min(10, { error: VALIDATION.loginPhone, abort: true })
  .refine(isTypedUsPhone, VALIDATION.loginPhone);

/** The code is optional in the schema; it is required once the code step is active. */
export function loginFormSchema(opts: { codeStepActive: boolean }) {
  return z.object({ phone: LoginPhoneSchema, code: z.string().optional() }).superRefine((value, ctx) => {
    if (opts.codeStepActive && !value.code?.trim()) {
      ctx.addIssue({ code: "custom", path: ["code"], message: VALIDATION.loginCode });
    }
  });
}

/** The sign-up phone as typed, "(202) 555-0123". */
export const SignupPhoneSchema = z
  .string({ error: VALIDATION.signupPhoneMin })
  // Digits counted, not characters: "(555) 555-55" is 12 characters but only 8 digits, "at least 10".
  // abort: a too-short number gets the "at least" message only, not also "exactly".
  .refine((value) => phoneDigits(value).length >= PHONE_DIGITS, { error: VALIDATION.signupPhoneMin, abort: true })
  .refine((value) => phoneDigits(value).length === PHONE_DIGITS, { error: VALIDATION.signupPhoneExact, abort: true })
  .refine(isTypedUsPhone, VALIDATION.usPhone);

/**
 * +1 and ten digits, the form every stored phone has. Only for numbers that
 * already reached us (an inbound STOP is honoured from any number we may have
 * texted); a number a client sends in must pass E164PhoneSchema.
 */
export const E164FormatSchema = z
  .string({ error: VALIDATION.loginPhone })
  // abort: a malformed value is "invalid", not also "not a US number".
  .regex(/^\+1\d{10}$/, { error: VALIDATION.loginPhone, abort: true });

/** A valid US number in E.164: the only phone the server accepts (and texts). */
export const E164PhoneSchema = E164FormatSchema.refine(isUsPhoneNumber, VALIDATION.usPhone);

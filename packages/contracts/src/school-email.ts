import { z } from "zod";
import { Int4Count, IsoDateTime } from "./common";
import { VerificationCodeSchema } from "./validation";

/**
 * Proving membership of a school with a code sent to a school address
 * (docs/product.md "School e-mail"). Codes get the care sign-in codes get:
 * hashed, short-lived, a few attempts each, limited per address and per
 * student.
 */
export const SCHOOL_EMAIL_CODE = {
  digits: 6,
  ttlMs: 10 * 60 * 1000,
  /** Guesses at one code. */
  maxAttempts: 5,
  resendIntervalMs: 30 * 1000,
  /** Codes one address may receive in an hour, whoever asks. */
  maxSendsPerAddressPerHour: 5,
  /** Codes one student may ask for in a day, to any addresses. */
  maxSendsPerStudentPerDay: 10,
  /** Wrong codes one student may enter in a rolling day before checks are refused until the day has passed. */
  maxFailuresPerDay: 15,
  windowMs: 24 * 60 * 60 * 1000,
  /**
   * Requests to send and to check one phone may make in a day, whatever their outcome, counted
   * apart from its account: the limits above are counted from the account's codes, which go with
   * it, so deleting the account and signing up again must not start them afresh.
   */
  maxSendRequestsPerPhonePerDay: 20,
  maxCheckRequestsPerPhonePerDay: 30,
} as const;

export const SCHOOL_EMAIL_MAX_LENGTH = 254;

export const SCHOOL_EMAIL_MESSAGES = {
  /** Shown instead of rounds, and answered by every voting, reporting and blocking endpoint, until the proof. */
  verifyToVote: "Verify your school e-mail to start voting",
  enter: "Please enter your school e-mail",
  invalid: "Please enter a valid e-mail address",
  tooLong: `E-mail addresses are at most ${SCHOOL_EMAIL_MAX_LENGTH} characters`,
  notSchool: (schoolName: string, domain: string) =>
    `That address isn't from ${schoolName}. Use your e-mail ending in @${domain}.`,
  noSchool: "Choose your school in your profile first.",
  taken: "That school e-mail already belongs to another account.",
  sent: (address: string) => `We sent a code to ${address}`,
  verified: "School e-mail verified",
  tooSoon: (seconds: number) => `Please wait ${seconds} seconds before requesting another code.`,
  tooManyForAddress: "Too many codes were sent to this address. Please try again in an hour.",
  tooManyForStudent: "You've asked for too many codes today. Please try again tomorrow.",
  invalidCode: "That code isn't right. Check the e-mail and try again.",
  expired: "This code has expired. Please request a new one.",
  noCode: "Request a code for this address first.",
  tooManyAttempts: "Too many wrong attempts. Please request a new code.",
  sendFailed: "We couldn't send the e-mail just now. Please try again in a minute.",
  lockedOut: (hours: number) =>
    `Too many wrong codes were entered today. You can try again in ${hours === 1 ? "1 hour" : `${hours} hours`}.`,
} as const;

// No "+" (sub-addressing: me+1@ and me+2@ reach one mailbox, and one mailbox proves one account) and no
// "%" (old source routing: the school's server may hand a%evil.com@school on to evil.com).
const LOCAL = "[a-z0-9._'-]+";
const DOMAIN = "[a-z0-9-]+(?:[.][a-z0-9-]+)+";
const ADDRESS = new RegExp(`^${LOCAL}@${DOMAIN}$`);

/** A school address as typed: trimmed and lower-cased (addresses are compared and stored that way). */
export const SchoolEmailSchema = z
  .string({ error: SCHOOL_EMAIL_MESSAGES.enter })
  .trim()
  .toLowerCase()
  .min(1, { error: SCHOOL_EMAIL_MESSAGES.enter, abort: true })
  .max(SCHOOL_EMAIL_MAX_LENGTH, { error: SCHOOL_EMAIL_MESSAGES.tooLong, abort: true })
  .regex(ADDRESS, SCHOOL_EMAIL_MESSAGES.invalid);

/** The domain an address is at, e.g. "cs.stanford.edu". */
export const emailDomain = (address: string): string => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/** The school domain an address proves: the domain itself or one it is a subdomain of; null when none. */
export function matchingSchoolDomain(address: string, domains: readonly string[]): string | null {
  const at = emailDomain(address);
  return domains.find((d) => at === d || at.endsWith(`.${d}`)) ?? null;
}

export const SendSchoolEmailCodeInput = z.object({ email: SchoolEmailSchema }).strict();
export const SendSchoolEmailCodeResult = z.object({ sent: z.literal(true), retryAfterSeconds: Int4Count });
export const VerifySchoolEmailInput = z.object({ email: SchoolEmailSchema, code: VerificationCodeSchema }).strict();

/** Development e-mail outbox: one address's messages, newest first. */
export const EmailOutboxInput = z.object({ to: SchoolEmailSchema }).strict();
export const EmailOutbox = z.object({
  messages: z.array(z.object({ to: z.string(), subject: z.string(), body: z.string(), createdAt: IsoDateTime })),
});

import { z } from "zod";
import { Int4Count, IsoDateTime } from "./common";
import { VerificationCodeSchema } from "./validation";
import { MeUser } from "./users";
import { type EndpointDef, route } from "./endpoint";

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
  /**
   * Codes one student may have sent to one mailbox (an address and its aliases at the school's
   * other domains) in an hour: a classmate spends their own count, never the owner's.
   */
  maxSendsPerAddressPerStudentPerHour: 3,
  /**
   * Students whose repeated codes one mailbox takes in an hour. Past them, a student gets a code for it
   * only while they hold no live one (unused, unexpired, with tries left): its owner always gets hers,
   * and classmates cannot fill the inbox with resends.
   */
  maxRequestersPerAddressPerHour: 3,
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
  /** Sub-addressing delivers many addresses to one mailbox, and one mailbox verifies one account. */
  plusAddress: 'Use your school address without the "+" part: each mailbox can verify one account.',
  alumni: (domain: string) =>
    `Alumni addresses don't show you're a student now. Use your student e-mail ending in @${domain}.`,
  taken: "That school e-mail already belongs to another account.",
  sent: (address: string) => `We sent a code to ${address}`,
  verified: "School e-mail verified",
  tooSoon: (seconds: number) => `Please wait ${seconds} seconds before requesting another code.`,
  tooManyForAddress: (minutes: number) =>
    `Several students asked for codes to this address. Use the one we e-mailed you, or ask again in ${minutes === 1 ? "1 minute" : `${minutes} minutes`}.`,
  tooManyForAddressFromYou: "You've asked for enough codes to this address for now. Please try again in an hour.",
  tooManyForStudent: "You've asked for too many codes today. Please try again tomorrow.",
  invalidCode: "That code isn't right. Check the e-mail and try again.",
  expired: "This code has expired. Please request a new one.",
  noCode: "Request a code for this address first.",
  tooManyAttempts: "Too many wrong attempts. Please request a new code.",
  sendFailed: "We couldn't send the e-mail just now. Please try again in a minute.",
  lockedOut: (hours: number) =>
    `Too many wrong codes were entered today. You can try again in ${hours === 1 ? "1 hour" : `${hours} hours`}.`,
} as const;

// The grammar of an address we accept, stricter than RFC 5322 on purpose: dot-separated atoms of
// letters, digits, "_", "'" and "-" before the @ (no leading, trailing or doubled dot, at most 64
// characters), and DNS labels after it (letters, digits, inner hyphens, at most 63 characters; the
// last label starts with a letter, so no IP addresses). No "+" (sub-addressing: me+1@ and me+2@
// reach one mailbox, and one mailbox proves one account), no "%" (old source routing: the school's
// server may hand a%evil.com@school on to evil.com), no quoting, comments or brackets.
const ATOM = "[a-z0-9_'-]+";
const LOCAL = `(?=[^@]{1,64}@)${ATOM}(?:[.]${ATOM})*`;
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const TOP_LABEL = "[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?";
const ADDRESS = new RegExp(`^${LOCAL}@(?:${LABEL}[.])+${TOP_LABEL}$`);

/** A school address as typed: trimmed and lower-cased (addresses are compared and stored that way). */
export const SchoolEmailSchema = z
  .string({ error: SCHOOL_EMAIL_MESSAGES.enter })
  .trim()
  .toLowerCase()
  .min(1, { error: SCHOOL_EMAIL_MESSAGES.enter, abort: true })
  .max(SCHOOL_EMAIL_MAX_LENGTH, { error: SCHOOL_EMAIL_MESSAGES.tooLong, abort: true })
  .refine((value) => !value.slice(0, Math.max(0, value.lastIndexOf("@"))).includes("+"), {
    error: SCHOOL_EMAIL_MESSAGES.plusAddress,
    abort: true,
  })
  .regex(ADDRESS, SCHOOL_EMAIL_MESSAGES.invalid);

/** The part of an address before its (last) @. */
export const emailLocalPart = (address: string): string => address.slice(0, address.lastIndexOf("@")).toLowerCase();

/** The domain an address is at, e.g. "cs.stanford.edu". */
export const emailDomain = (address: string): string => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/** Labels that name an alumni service (alumni.x.edu, alum.x.edu): a former student's forwarding address. */
const ALUMNI_LABEL = /^alum(?:ni|nae|nus|na|s)?$|^alumni-|-alumni$/;

/** Whether a domain is an alumni one, whatever school lists it. */
export const isAlumniDomain = (domain: string): boolean =>
  domain
    .toLowerCase()
    .split(".")
    .some((label) => ALUMNI_LABEL.test(label));

/**
 * The school domain an address proves: one of the school's listed domains exactly (a subdomain
 * counts only when the school lists it), never an alumni domain; null when none.
 */
export function matchingSchoolDomain(address: string, domains: readonly string[]): string | null {
  const at = emailDomain(address);
  if (isAlumniDomain(at)) return null;
  return domains.find((d) => at === d) ?? null;
}

/**
 * Why an address (already valid) does not prove membership of the school, as the student is told;
 * null when it does. `domains` is the school's list, its main domain first.
 */
export function schoolAddressRefusal(address: string, schoolName: string, domains: readonly string[]): string | null {
  if (matchingSchoolDomain(address, domains)) return null;
  const main = domains[0] ?? "your school's domain";
  return isAlumniDomain(emailDomain(address))
    ? SCHOOL_EMAIL_MESSAGES.alumni(main)
    : SCHOOL_EMAIL_MESSAGES.notSchool(schoolName, main);
}

export const SendSchoolEmailCodeInput = z.object({ email: SchoolEmailSchema }).strict();
export const SendSchoolEmailCodeResult = z.object({ sent: z.literal(true), retryAfterSeconds: Int4Count });
export const VerifySchoolEmailInput = z.object({ email: SchoolEmailSchema, code: VerificationCodeSchema }).strict();

/** Development e-mail outbox: one address's messages, newest first. */
export const EmailOutboxInput = z.object({ to: SchoolEmailSchema }).strict();
export const EmailOutbox = z.object({
  messages: z.array(z.object({ to: z.string(), subject: z.string(), body: z.string(), createdAt: IsoDateTime })),
});

/** The schoolEmail procedures' rows of the endpoint table (merged in routes.ts). */
export const schoolEmailRoutes = {
  "schoolEmail.sendCode": route({
    writeLimit: true,
    method: "POST",
    path: "/users/school-email/send-code",
    auth: true,
    tags: ["users"],
    summary: "E-mail a 6-digit code to a school address of the student's school",
    input: SendSchoolEmailCodeInput,
    output: SendSchoolEmailCodeResult,
  }),
  "schoolEmail.verify": route({
    writeLimit: true,
    method: "POST",
    path: "/users/school-email/verify",
    auth: true,
    tags: ["users"],
    summary: "Prove membership of the school with the e-mailed code; the address becomes the student's",
    input: VerifySchoolEmailInput,
    output: MeUser,
  }),
} as const satisfies Record<`schoolEmail.${string}`, EndpointDef>;

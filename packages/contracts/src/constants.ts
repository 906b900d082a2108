/**
 * Business constants of docs/product.md and docs/architecture.md. Every number the product
 * depends on lives here once; server, client and tests import it.
 */

export const GENDERS = ["male", "female"] as const;
export type Gender = (typeof GENDERS)[number];

export const GRADUATION_YEARS = [2025, 2026, 2027, 2028, 2029] as const;
export type GraduationYear = (typeof GRADUATION_YEARS)[number];

/** Client HTTP timeout and the session-restore timeout (docs/product.md). */
export const API_TIMEOUT_MS = 100_000;
export const SESSION_RESTORE_TIMEOUT_MS = 5_000;
/** localStorage key holding the persisted session (docs/product.md). */
export const SESSION_STORAGE_KEY = "user";

export const INSTAGRAM_MAX_LENGTH = 30;
export const PHONE_DIGITS = 10;
export const PHONE_COUNTRY_CODE = "+1";
/** "(555) 555-5555" is 14 characters: Send Code needs all of them. */
export const FORMATTED_PHONE_LENGTH = 14;

export const CROP = {
  aspectRatio: 3 / 4,
  minZoom: 1,
  maxZoom: 3,
  zoomStep: 0.1,
  previewHeightPx: 450,
} as const;

export const VOTES_PAGE_SIZE = 10;
export const VOTES_PAGE_MAX = 50;
export const CANDIDATES_PER_ROUND = 2;

/** Allowances (docs/architecture.md "Rounds and voting"). */
export const VOTES_PER_BATCH = 12;
export const VOTE_COOLDOWN_MS = 60 * 60 * 1000;
export const SKIPS_IN_A_ROW = 3;
/** Boosted students are drawn this many times as often as others. */
export const BOOST_WEIGHT = 5;

export const BACKGROUND_JOB_INTERVAL_MS = 10 * 60 * 1000;
export const BOOST_TICK_MS = 60 * 1000;

/** Local auth provider (docs/architecture.md "Identity and sessions"). */
export const AUTH_CODE = {
  digits: 6,
  ttlMs: 10 * 60 * 1000,
  maxAttempts: 5,
  resendIntervalMs: 30 * 1000,
  maxSendsPerHour: 5,
  /**
   * Wrong codes a phone may enter in a rolling day, across all its codes.
   * The next one locks sign-in for that number until the oldest of them is a
   * day old: at most 15 guesses a day at a one-in-a-million code.
   */
  maxFailuresPerDay: 15,
  failureWindowMs: 24 * 60 * 60 * 1000,
} as const;

/**
 * Codes sent to one client address in an hour. Loose on purpose: a campus
 * signs in from one NAT address, and 500 students in an hour (each maybe
 * asking twice) must get through. Pumping is bounded by the global hourly
 * SMS budget instead (server configuration SMS_HOURLY_BUDGET).
 */
export const SIGN_IN_CODES_PER_ADDRESS = { limit: 1000, windowMs: 60 * 60 * 1000 } as const;

/** Photos (issue: sign-in and profiles). */
export const PHOTO = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  outputWidth: 900,
  outputHeight: 1200,
  acceptedMimeTypes: ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"],
} as const;

/** Policy dates shown on /terms (docs/product.md). */
export const POLICY_EFFECTIVE_DATE = "March 11, 2025";
export const POLICY_UPDATED_DATE = "April 8, 2025";
/** Versions recorded with each consent so a record says which text was agreed. */
export const SMS_CONSENT_VERSION = "sms-2025-04-08";
export const TERMS_VERSION = "terms-2025-04-08";

export const SMS_OPT_OUT_KEYWORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"] as const;
export const SMS_OPT_IN_KEYWORDS = ["START", "UNSTOP"] as const;
export const SMS_HELP_KEYWORDS = ["HELP"] as const;

/**
 * Business constants of docs/product.md and docs/architecture.md. Every number the product
 * depends on lives here once; server, client and tests import it.
 */

export const GENDERS = ["male", "female"] as const;
export type Gender = (typeof GENDERS)[number];

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

export const INBOX_PAGE_SIZE = 10;
export const INBOX_PAGE_MAX = 50;
/** New votes are counted up to this many; the badge shows "99+" past it. */
export const INBOX_NEW_VOTES_MAX = 99;
export const CANDIDATES_PER_ROUND = 2;

/** Allowances (docs/product.md "Allowances"). */
export const VOTES_PER_BATCH = 12;
export const VOTE_COOLDOWN_MS = 60 * 60 * 1000;
export const SKIPS_IN_A_ROW = 3;
/** Boosted students are drawn this many times as often as others. */
export const BOOST_WEIGHT = 5;

export const BACKGROUND_JOB_INTERVAL_MS = 10 * 60 * 1000;
export const BOOST_TICK_MS = 60 * 1000;

/**
 * Local auth provider (docs/product.md "Signing up and signing in"). A code
 * is bound to the request that asked for it (send-code answers an opaque
 * `codeRequestId` the check must present), and limits count per requester
 * — the phone asked about from one client address — so that nobody else's
 * sends or guesses lock the owner out. Decision 0013 gives the numbers'
 * reasoning and the risk that remains.
 */
export const AUTH_CODE = {
  digits: 6,
  ttlMs: 10 * 60 * 1000,
  /** Tries per code, while the phone has had fewer than `failuresBeforeOneTry` wrong codes in a day. */
  maxAttempts: 5,
  /** Per requester: one code per 30 s, 5 an hour, 10 a day. */
  resendIntervalMs: 30 * 1000,
  maxSendsPerHour: 5,
  maxSendsPerDay: 10,
  /**
   * Codes a phone gets in a rolling day from all requesters (SMS cost). A
   * requester's first code of the day for the phone is sent even past it,
   * so the owner, asking from an address of their own, always gets one.
   */
  maxSendsPerPhonePerDay: 50,
  /**
   * Wrong codes a phone may take in a rolling day before each code allows
   * one try only; past it, a requester that entered `requesterFailuresPerDay`
   * wrong codes for the phone gets no more codes for it that day.
   */
  failuresBeforeOneTry: 15,
  requesterFailuresPerDay: 3,
  failureWindowMs: 24 * 60 * 60 * 1000,
  /**
   * A requester's wrong codes for a phone in a day: past the first 3, each
   * next check waits 2 s after the last wrong one, doubling per wrong code
   * up to 15 minutes.
   */
  slowdown: { freeFailures: 3, firstWaitMs: 2000, maxWaitMs: 15 * 60 * 1000 },
  /** The opaque `codeRequestId`: 32 random bytes, base64url. */
  requestIdLength: 43,
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

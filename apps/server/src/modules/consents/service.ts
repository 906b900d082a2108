import {
  missingSignupConsents,
  SMS_CONSENT_VERSION,
  TERMS_VERSION,
  VALIDATION,
  type SmsSettings,
} from "@quad/contracts";
import type { Database, Transaction } from "@quad/db";
import { consents, users } from "@quad/db/schema";
import { and, desc, eq, inArray, like, sql } from "drizzle-orm";
import { AppError } from "../../errors";

/**
 * Consent is a record, not a flag: when, which text version, which phone,
 * from where. Appended, never updated, so the history proves what was agreed.
 * The latest sms row of a phone is its current choice.
 */
export async function recordSignupConsents(db: Database, phone: string, now: Date): Promise<void> {
  await db.insert(consents).values([
    { phone, kind: "sms", granted: true, textVersion: SMS_CONSENT_VERSION, source: "signup", createdAt: now },
    { phone, kind: "terms", granted: true, textVersion: TERMS_VERSION, source: "signup", createdAt: now },
  ]);
}

/**
 * A sign-in that would start a new account without the sign-up's two consents, refused with the
 * phone step's own messages; null when it carries them or the phone is known. Known is an account,
 * or the terms agreed before (a sign-up whose profile is not written yet): those sign in without.
 * Asked only once the phone is proved, so the answer tells no stranger whether an account exists.
 */
export async function missingConsentsRefusal(
  db: Database | Transaction,
  phone: string,
  given: { sms: true; terms: true } | undefined,
): Promise<AppError | null> {
  if (given) return null;
  const [account] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone)).limit(1);
  if (account) return null;
  const [agreed] = await db
    .select({ id: consents.id })
    .from(consents)
    .where(and(eq(consents.phone, phone), eq(consents.kind, "terms"), eq(consents.granted, true)))
    .limit(1);
  if (agreed) return null;
  return new AppError("BAD_REQUEST", VALIDATION.smsConsent, { fieldErrors: missingSignupConsents() });
}

/** Rows written by an inbound keyword carry this prefix: "sms:STOP", "sms:START"... */
const SMS_KEYWORD_SOURCE = "sms:";

export interface SmsConsentState {
  /** The latest sms consent row, whatever wrote it. */
  granted: boolean;
  /** The number replied STOP (or a synonym) and has not replied START since. */
  optedOutBySms: boolean;
  updatedAt: Date | null;
}

const NO_CONSENT: SmsConsentState = { granted: false, optedOutBySms: false, updatedAt: null };

/**
 * The SMS consent of many phones in two indexed queries. A phone without any
 * record has not consented. Ties in time are broken by insertion order.
 */
export async function smsConsentStates(db: Database, phones: readonly string[]): Promise<Map<string, SmsConsentState>> {
  const states = new Map<string, SmsConsentState>();
  if (phones.length === 0) return states;
  const unique = [...new Set(phones)];
  const byPhone = and(eq(consents.kind, "sms"), inArray(consents.phone, unique));
  const [latest, latestKeyword] = await Promise.all([
    db
      .selectDistinctOn([consents.phone], {
        phone: consents.phone,
        granted: consents.granted,
        createdAt: consents.createdAt,
      })
      .from(consents)
      .where(byPhone)
      .orderBy(consents.phone, desc(consents.createdAt), desc(consents.seq)),
    db
      .selectDistinctOn([consents.phone], { phone: consents.phone, granted: consents.granted })
      .from(consents)
      .where(and(byPhone, like(consents.source, `${SMS_KEYWORD_SOURCE}%`)))
      .orderBy(consents.phone, desc(consents.createdAt), desc(consents.seq)),
  ]);
  const keywordOptOut = new Set(latestKeyword.filter((row) => !row.granted).map((row) => row.phone));
  for (const row of latest) {
    states.set(row.phone, {
      granted: row.granted,
      optedOutBySms: keywordOptOut.has(row.phone),
      updatedAt: row.createdAt,
    });
  }
  return states;
}

export async function smsConsentState(db: Database, phone: string): Promise<SmsConsentState> {
  return (await smsConsentStates(db, [phone])).get(phone) ?? NO_CONSENT;
}

const allows = (state: SmsConsentState | undefined) => state !== undefined && state.granted && !state.optedOutBySms;

/**
 * May the app text this phone anything it did not ask for (vote notices)?
 * Only when its latest sms consent is granted and it has not replied STOP
 * since its last START: a STOP can only be undone by texting START, never by
 * the settings switch, because the carrier blocks every message until then.
 */
export async function smsAllowed(db: Database, phone: string): Promise<boolean> {
  return allows(await smsConsentState(db, phone));
}

/** smsAllowed for many phones at once: the ones that may be texted. */
export async function smsAllowedPhones(db: Database, phones: readonly string[]): Promise<Set<string>> {
  const states = await smsConsentStates(db, phones);
  return new Set([...states].filter(([, state]) => allows(state)).map(([phone]) => phone));
}

async function userIdOf(db: Database, phone: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone));
  return row?.id ?? null;
}

export function settingsOf(state: SmsConsentState): SmsSettings {
  return {
    enabled: allows(state),
    optedOutBySms: state.optedOutBySms,
    updatedAt: state.updatedAt?.toISOString() ?? null,
  };
}

/** The settings switch: appends a consent row (source "settings") with the current text version. */
export async function setSmsConsent(db: Database, phone: string, enabled: boolean, now: Date): Promise<SmsSettings> {
  await db.insert(consents).values({
    phone,
    userId: await userIdOf(db, phone),
    kind: "sms",
    granted: enabled,
    textVersion: SMS_CONSENT_VERSION,
    source: "settings",
    createdAt: now,
  });
  return settingsOf(await smsConsentState(db, phone));
}

/**
 * An inbound keyword: STOP and its synonyms withdraw consent, START and
 * UNSTOP give it again. Answers whether the state changed, so a repeated
 * STOP is not confirmed twice.
 */
export async function recordSmsKeywordConsent(
  db: Database,
  phone: string,
  keyword: string,
  granted: boolean,
  now: Date,
): Promise<{ changed: boolean }> {
  return db.transaction(async (tx) => {
    // Twilio retries webhooks: two deliveries of one STOP must not both count as a change.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"sms-consent:" + phone}))`);
    const before = await smsConsentState(tx, phone);
    const changed = granted ? before.optedOutBySms || !before.granted : !before.optedOutBySms;
    if (!changed) return { changed };
    await tx.insert(consents).values({
      phone,
      userId: await userIdOf(tx, phone),
      kind: "sms",
      granted,
      textVersion: SMS_CONSENT_VERSION,
      source: `${SMS_KEYWORD_SOURCE}${keyword}`,
      createdAt: now,
    });
    return { changed };
  });
}

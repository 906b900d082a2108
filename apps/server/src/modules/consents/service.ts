import { SMS_CONSENT_VERSION, TERMS_VERSION } from "@quad/contracts";
import type { Database } from "@quad/db";
import { consents } from "@quad/db/schema";

/**
 * Consent is a record, not a flag: when, which text version, which phone,
 * from where. Appended, never updated, so the history proves what was agreed.
 */
export async function recordSignupConsents(db: Database, phone: string, now: Date): Promise<void> {
  await db.insert(consents).values([
    { phone, kind: "sms", granted: true, textVersion: SMS_CONSENT_VERSION, source: "signup", createdAt: now },
    { phone, kind: "terms", granted: true, textVersion: TERMS_VERSION, source: "signup", createdAt: now },
  ]);
}

import { AUTH_CODE, SCHOOL_EMAIL_CODE } from "@quad/contracts";
import type { Database } from "@quad/db";
import {
  authCodes,
  authSessions,
  emailOutbox,
  keptUrgentReports,
  pushNotices,
  schoolEmailCodes,
  sessionRevocations,
  smsOutbox,
} from "@quad/db/schema";
import { inArray, lt, or, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { REVOCATION_RETENTION_MS } from "../auth/revocations";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export const RETENTION = {
  /**
   * Sign-in codes are kept a day past their expiry: the per-phone limits
   * count stored codes (sends in the last hour, wrong codes in the last day:
   * AUTH_CODE.failureWindowMs), so deleting them sooner would lift them.
   */
  authCodesAfterExpiryMs: AUTH_CODE.failureWindowMs,
  /**
   * Expired or revoked refresh tokens. A revoked one is kept a while so that
   * presenting it again still revokes its whole family (reuse detection).
   */
  sessionsMs: 7 * DAY_MS,
  /** Signed-out families matter only while their access tokens could still be valid. */
  sessionRevocationsMs: REVOCATION_RETENTION_MS,
  smsOutboxMs: 30 * DAY_MS,
  /** School e-mail codes: their limits count the last day's codes, as sign-in codes' do. */
  schoolEmailCodesMs: SCHOOL_EMAIL_CODE.windowMs + SCHOOL_EMAIL_CODE.ttlMs,
  emailOutboxMs: 30 * DAY_MS,
  /** Push notices (and their deliveries), kept as long as texts. */
  pushNoticesMs: 30 * DAY_MS,
  /**
   * Under 18 reports about a student who deleted their account, waiting for the phone to sign up
   * again (safety/kept-reports.ts): a year from the deletion, then they go.
   */
  keptUrgentReportsMs: 365 * DAY_MS,
} as const;

/** Deletes run in slices, so one purge never holds many row locks or a long transaction. */
const PURGE_BATCH = 5000;

export interface PurgeReport {
  authCodes: number;
  sessions: number;
  sessionRevocations: number;
  smsOutbox: number;
  schoolEmailCodes: number;
  emailOutbox: number;
  pushNotices: number;
  keptUrgentReports: number;
}

async function deleteInBatches(db: Database, table: PgTable, id: PgColumn, where: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const slice = db.select({ id }).from(table).where(where).limit(PURGE_BATCH);
    const deleted = await db.delete(table).where(inArray(id, slice)).returning({ id });
    total += deleted.length;
    if (deleted.length < PURGE_BATCH) return total;
  }
}

/**
 * Expired sign-in and school e-mail codes, old sessions, sign-outs no token can outlive, texts, e-mails
 * and push records older than 30 days, and reports kept from deleted accounts a year on.
 */
export async function purgeExpired(db: Database, now: Date): Promise<PurgeReport> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  return {
    authCodes: await deleteInBatches(
      db,
      authCodes,
      authCodes.id,
      lt(authCodes.expiresAt, before(RETENTION.authCodesAfterExpiryMs)),
    ),
    sessions: await deleteInBatches(
      db,
      authSessions,
      authSessions.id,
      or(
        lt(authSessions.expiresAt, before(RETENTION.sessionsMs)),
        lt(authSessions.revokedAt, before(RETENTION.sessionsMs)),
      )!,
    ),
    sessionRevocations: await deleteInBatches(
      db,
      sessionRevocations,
      sessionRevocations.familyId,
      lt(sessionRevocations.revokedAt, before(RETENTION.sessionRevocationsMs)),
    ),
    smsOutbox: await deleteInBatches(
      db,
      smsOutbox,
      smsOutbox.id,
      lt(smsOutbox.createdAt, before(RETENTION.smsOutboxMs)),
    ),
    schoolEmailCodes: await deleteInBatches(
      db,
      schoolEmailCodes,
      schoolEmailCodes.id,
      lt(schoolEmailCodes.createdAt, before(RETENTION.schoolEmailCodesMs)),
    ),
    emailOutbox: await deleteInBatches(
      db,
      emailOutbox,
      emailOutbox.id,
      lt(emailOutbox.createdAt, before(RETENTION.emailOutboxMs)),
    ),
    pushNotices: await deleteInBatches(
      db,
      pushNotices,
      pushNotices.id,
      lt(pushNotices.createdAt, before(RETENTION.pushNoticesMs)),
    ),
    keptUrgentReports: await deleteInBatches(
      db,
      keptUrgentReports,
      keptUrgentReports.id,
      lt(keptUrgentReports.keptAt, before(RETENTION.keptUrgentReportsMs)),
    ),
  };
}

import { randomUUID } from "node:crypto";
import {
  authCodes,
  authSessions,
  emailOutbox,
  keptUrgentReports,
  schoolEmailCodes,
  sessionRevocations,
  smsOutbox,
} from "@quad/db/schema";
import { createTestDatabase, insertTestSchool, insertTestUser, type TestDatabase } from "@quad/db/testing";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeExpired, RETENTION } from "./purge";

const NOW = new Date("2026-03-08T12:00:00Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

describe("the purge", () => {
  it("deletes expired codes, old sessions, sign-outs no token outlives and outbox rows older than 30 days, and nothing else", async () => {
    const phone = "+15555550199";
    const code = (expiresAt: Date) => ({
      phone,
      codeHash: randomUUID(),
      requestHash: randomUUID(),
      requesterHash: randomUUID(),
      createdAt: new Date(expiresAt.getTime() - 10 * MINUTE),
      expiresAt,
    });
    const codes = await t.db
      .insert(authCodes)
      .values([
        code(ago(25 * 60 * MINUTE)), // expired over a day ago: gone
        code(ago(2 * 60 * MINUTE)), // expired, but its wrong codes still count toward the daily lock: kept
        code(ago(30 * MINUTE)), // expired, but still counted by the hourly send limit: kept
        code(new Date(NOW.getTime() + 5 * MINUTE)), // live: kept
      ])
      .returning({ id: authCodes.id });

    const session = (overrides: { expiresAt: Date; revokedAt?: Date }) => ({
      phone,
      familyId: randomUUID(),
      tokenHash: randomUUID(),
      createdAt: ago(40 * DAY),
      ...overrides,
    });
    const sessions = await t.db
      .insert(authSessions)
      .values([
        session({ expiresAt: ago(RETENTION.sessionsMs + DAY) }), // expired long ago: gone
        session({ expiresAt: new Date(NOW.getTime() + DAY), revokedAt: ago(RETENTION.sessionsMs + DAY) }), // revoked long ago: gone
        session({ expiresAt: new Date(NOW.getTime() + DAY), revokedAt: ago(DAY) }), // revoked lately (reuse detection): kept
        session({ expiresAt: ago(DAY) }), // expired lately: kept
        session({ expiresAt: new Date(NOW.getTime() + DAY) }), // live: kept
      ])
      .returning({ id: authSessions.id });

    const message = (createdAt: Date) => ({
      toPhone: phone,
      body: "x",
      kind: "code" as const,
      status: "sent" as const,
      createdAt,
    });
    const messages = await t.db
      .insert(smsOutbox)
      .values([message(ago(31 * DAY)), message(ago(29 * DAY))])
      .returning({ id: smsOutbox.id });

    // School e-mail codes count toward a day's limits; e-mails are kept 30 days, as texts are.
    const student = await insertTestUser(t.db, { schoolId: (await insertTestSchool(t.db)).id, member: false });
    const schoolCode = (createdAt: Date) => ({
      userId: student.id,
      address: "ada@tu.edu",
      codeHash: randomUUID(),
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 10 * MINUTE),
    });
    const schoolCodes = await t.db
      .insert(schoolEmailCodes)
      .values([schoolCode(ago(DAY + 11 * MINUTE)), schoolCode(ago(DAY - MINUTE))])
      .returning({ id: schoolEmailCodes.id });
    const email = (createdAt: Date) => ({
      userId: student.id,
      toAddress: "ada@tu.edu",
      subject: "s",
      body: "b",
      status: "sent",
      createdAt,
    });
    const emails = await t.db
      .insert(emailOutbox)
      .values([email(ago(31 * DAY)), email(ago(29 * DAY))])
      .returning({ id: emailOutbox.id });

    // A sign-out matters only while the family's access tokens could still be valid.
    const recentSignOut = randomUUID();
    await t.db.insert(sessionRevocations).values([
      { familyId: randomUUID(), revokedAt: ago(RETENTION.sessionRevocationsMs + MINUTE) }, // no token outlives it: gone
      { familyId: recentSignOut, revokedAt: ago(RETENTION.sessionRevocationsMs - MINUTE) }, // tokens may still be live: kept
    ]);

    // Under 18 reports kept from a deleted account wait a year for the phone to come back.
    const kept = (keptAt: Date) => ({ phoneDigest: "d", reason: "under_18" as const, reportedAt: keptAt, keptAt });
    const keptReports = await t.db
      .insert(keptUrgentReports)
      .values([kept(ago(RETENTION.keptUrgentReportsMs + MINUTE)), kept(ago(RETENTION.keptUrgentReportsMs - MINUTE))])
      .returning();

    expect(await purgeExpired(t.db, NOW)).toEqual({
      authCodes: 1,
      sessions: 2,
      sessionRevocations: 1,
      smsOutbox: 1,
      schoolEmailCodes: 1,
      emailOutbox: 1,
      pushNotices: 0,
      keptUrgentReports: 1,
    });
    expect(
      await t.db.select().from(sessionRevocations).where(eq(sessionRevocations.familyId, recentSignOut)),
    ).toHaveLength(1);
    const left = async <T extends { id: string }>(
      rows: T[],
      table: typeof authCodes | typeof authSessions | typeof smsOutbox,
    ) =>
      (
        await t.db
          .select({ id: table.id })
          .from(table)
          .where(
            inArray(
              table.id,
              rows.map((r) => r.id),
            ),
          )
      )
        .map((r) => rows.findIndex((x) => x.id === r.id))
        .sort();
    expect(await left(codes, authCodes)).toEqual([1, 2, 3]);
    expect(await left(sessions, authSessions)).toEqual([2, 3, 4]);
    expect(await left(messages, smsOutbox)).toEqual([1]);
    expect((await t.db.select({ id: schoolEmailCodes.id }).from(schoolEmailCodes)).map((r) => r.id)).toEqual([
      schoolCodes[1]!.id,
    ]);
    expect((await t.db.select({ id: emailOutbox.id }).from(emailOutbox)).map((r) => r.id)).toEqual([emails[1]!.id]);
    expect((await t.db.select({ id: keptUrgentReports.id }).from(keptUrgentReports)).map((r) => r.id)).toEqual([
      keptReports[1]!.id,
    ]);

    expect(await purgeExpired(t.db, NOW)).toEqual({
      authCodes: 0,
      sessions: 0,
      sessionRevocations: 0,
      smsOutbox: 0,
      schoolEmailCodes: 0,
      emailOutbox: 0,
      pushNotices: 0,
      keptUrgentReports: 0,
    });
  });
});

import type { Database } from "@quad/db";
import {
  authSessions,
  blocks,
  consents,
  emailOutbox,
  flashSaleOffers,
  prompts,
  pushNotices,
  pushSubscriptions,
  reports,
  smsOutbox,
  unlocks,
  users,
  votes,
} from "@quad/db/schema";
import { desc, eq } from "drizzle-orm";
import { getMe } from "../users/profile";
import { hourOf } from "../inbox/cards";
import { readVotesPage } from "../inbox/received";
import { paymentHistory } from "../payments/service";

/**
 * Everything stored about the caller, as one JSON document. What others
 * did stays as private as the app keeps it: received votes appear as the
 * inbox shows them (voters only where unlocked), and reports about the
 * caller are left out: a count that rose the moment someone reported them
 * would tell them of the report, and when, and so perhaps who (docs/product.md "Safety").
 */
export async function exportAccount(db: Database, phone: string, now: Date) {
  const profile = await getMe(db, phone);
  const me = profile.id;
  const [consentRows, sessions, cast, unlocked, blocked, reportsMade, texts, purchases_, received, flashSale, emails] =
    await Promise.all([
      db.select().from(consents).where(eq(consents.phone, phone)).orderBy(desc(consents.createdAt)),
      db
        .select({
          createdAt: authSessions.createdAt,
          expiresAt: authSessions.expiresAt,
          revokedAt: authSessions.revokedAt,
        })
        .from(authSessions)
        .where(eq(authSessions.phone, phone)),
      db
        .select({ prompt: prompts.text, createdAt: votes.createdAt, recipient: users.firstName })
        .from(votes)
        .innerJoin(prompts, eq(prompts.id, votes.promptId))
        .innerJoin(users, eq(users.id, votes.recipientId))
        .where(eq(votes.voterId, me))
        .orderBy(desc(votes.createdAt)),
      db
        .select({ firstName: users.firstName, unlockedAt: unlocks.createdAt })
        .from(unlocks)
        .innerJoin(users, eq(users.id, unlocks.voterId))
        .where(eq(unlocks.ownerId, me)),
      db
        .select({ firstName: users.firstName, blockedAt: blocks.createdAt })
        .from(blocks)
        .innerJoin(users, eq(users.id, blocks.blockedId))
        .where(eq(blocks.blockerId, me)),
      db
        .select({ reason: reports.reason, note: reports.note, createdAt: reports.createdAt })
        .from(reports)
        .where(eq(reports.reporterId, me)),
      db
        .select({ body: smsOutbox.body, status: smsOutbox.status, createdAt: smsOutbox.createdAt })
        .from(smsOutbox)
        .where(eq(smsOutbox.toPhone, phone)),
      paymentHistory(db, phone),
      allReceived(db, phone, now),
      db
        .select({ startedAt: flashSaleOffers.startedAt, endsAt: flashSaleOffers.endsAt })
        .from(flashSaleOffers)
        .where(eq(flashSaleOffers.userId, me)),
      db
        // Not the subject or body: they carry the code, which is for whoever reads that inbox, not for the
        // student who asked (else asking for a code to anyone's address and exporting would prove it).
        .select({ to: emailOutbox.toAddress, status: emailOutbox.status, createdAt: emailOutbox.createdAt })
        .from(emailOutbox)
        .where(eq(emailOutbox.userId, me))
        .orderBy(desc(emailOutbox.createdAt)),
    ]);
  const [devices, pushes, [inbox]] = await Promise.all([
    db
      .select({ endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, me)),
    db
      .select({ voteCount: pushNotices.voteCount, createdAt: pushNotices.createdAt })
      .from(pushNotices)
      .where(eq(pushNotices.userId, me)),
    db.select({ openedAt: users.inboxOpenedAt }).from(users).where(eq(users.id, me)),
  ]);
  return {
    exportedAt: now.toISOString(),
    profile,
    consents: consentRows.map((row) => ({
      kind: row.kind,
      granted: row.granted,
      textVersion: row.textVersion,
      source: row.source,
      at: row.createdAt.toISOString(),
    })),
    sessions: sessions.map((row) => ({
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      revokedAt: row.revokedAt?.toISOString() ?? null,
    })),
    // To the hour, as every card: an exact cast time, even in the voter's own file, is what a friend's inbox is matched against.
    votesCast: cast.map((row) => ({ prompt: row.prompt, for: row.recipient, at: hourOf(row.createdAt.toISOString()) })),
    votesReceived: received,
    inboxLastOpenedAt: inbox?.openedAt.toISOString() ?? null,
    unlocked: unlocked.map((row) => ({ firstName: row.firstName, at: row.unlockedAt.toISOString() })),
    blocked: blocked.map((row) => ({ firstName: row.firstName, at: row.blockedAt.toISOString() })),
    reportsMade: reportsMade.map((row) => ({ reason: row.reason, note: row.note, at: row.createdAt.toISOString() })),
    textMessages: texts.map((row) => ({ body: row.body, status: row.status, at: row.createdAt.toISOString() })),
    emails: emails.map((row) => ({ to: row.to, status: row.status, at: row.createdAt.toISOString() })),
    // A device is named by its push service, not its full endpoint (a capability URL).
    pushDevices: devices.map((row) => ({
      pushService: new URL(row.endpoint).host,
      since: row.createdAt.toISOString(),
    })),
    pushNotices: pushes.map((row) => ({ votes: row.voteCount, at: row.createdAt.toISOString() })),
    purchases: purchases_.purchases,
    flashSale: flashSale[0]
      ? { startedAt: flashSale[0].startedAt.toISOString(), endsAt: flashSale[0].endsAt.toISOString() }
      : null,
  };
}

async function allReceived(db: Database, phone: string, now: Date) {
  const cards = [];
  let cursor: string | undefined;
  for (;;) {
    const { page } = await readVotesPage(db, phone, { page: 1, limit: 50, cursor }, now);
    cards.push(...page.votes);
    if (!page.nextCursor) return cards;
    cursor = page.nextCursor;
  }
}

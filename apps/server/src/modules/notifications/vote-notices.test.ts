import { queryRows, type DatabaseHandle } from "@quad/db";
import { smsOutbox, votes, type User } from "@quad/db/schema";
import { createTestDatabase, insertTestSchool, insertTestUser } from "@quad/db/testing";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobScheduler } from "../../jobs/scheduler";
import { consentTo, fakeProvider, giveVotes, secondConnection, testClock, type FakeProvider } from "../../test/sms";
import { recordSmsKeywordConsent, setSmsConsent } from "../consents/service";
import { sendQueuedMessages } from "../sms/queue";
import { notificationJob } from "./job";
import { queueVoteNotices, waitingRecipients } from "./vote-notices";

const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim() || undefined;
const PUBLIC_URL = "https://quad.example";
const HOUR = 60 * 60 * 1000;

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());
const db = () => handle.db;

/** A student who consented at sign-up, at a school in the given zone, and voters who name themselves. */
async function student(timeZone = "America/Los_Angeles", consentAt = new Date("2026-01-01T00:00:00Z")) {
  const school = await insertTestSchool(db(), { timeZone });
  const recipient = await insertTestUser(db(), { schoolId: school.id, firstName: "Robin" });
  await consentTo(db(), recipient.phone, consentAt);
  const voters: User[] = [];
  for (const name of ["Zelda", "Quincy", "Xavier", "Yolanda", "Wilhelmina"]) {
    voters.push(
      await insertTestUser(db(), { schoolId: school.id, firstName: name, instagramHandle: `@${name.toLowerCase()}` }),
    );
  }
  return { school, recipient, voters };
}

/** One job run's two halves, as the job does them. */
async function runOnce(clock: { now: () => Date }, provider: FakeProvider) {
  const notices = await queueVoteNotices({ db: db(), now: clock.now, publicUrl: PUBLIC_URL });
  await sendQueuedMessages({ db: db(), provider, now: clock.now });
  return notices;
}
const textsTo = (provider: FakeProvider, phone: string) =>
  provider.delivered.filter((m) => m.to === phone).map((m) => m.body);
const unnotified = async (recipientId: string) =>
  (
    await db()
      .select()
      .from(votes)
      .where(and(eq(votes.recipientId, recipientId), isNull(votes.notifiedAt)))
  ).length;

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  Plans?: PlanNode[];
}
const fromJson = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value) as [{ Plan: PlanNode }];

/** The rows every scan of `table` in an EXPLAIN ANALYZE returned, over all its loops, and the kinds of scan. */
function rowsReadFrom(plan: [{ Plan: PlanNode }], table: string) {
  const read = { rows: 0, scans: [] as string[] };
  const walk = (node: PlanNode) => {
    if (node["Relation Name"] === table) {
      read.rows += node["Actual Rows"] * node["Actual Loops"];
      if (!read.scans.includes(node["Node Type"])) read.scans.push(node["Node Type"]);
    }
    node.Plans?.forEach(walk);
  };
  walk(plan[0].Plan);
  return read;
}

describe("vote notices", () => {
  it("batch new votes into one text that counts them, links home and names no voter", async () => {
    const clock = testClock("2026-03-05T20:00:00Z"); // 12:00 in Los Angeles
    const { recipient, voters } = await student();
    await giveVotes(
      db(),
      recipient.id,
      voters.map((v) => v.id),
      new Date("2026-03-05T19:00:00Z"),
    );
    const provider = fakeProvider();

    expect(await runOnce(clock, provider)).toMatchObject({ queued: 1 });
    const texts = textsTo(provider, recipient.phone);
    expect(texts).toEqual([
      "You got 5 new votes on Quad! See who voted for you: https://quad.example/home Reply STOP to opt out.",
    ]);
    for (const voter of voters) {
      expect(texts[0]).not.toContain(voter.firstName!);
      expect(texts[0]).not.toContain(voter.instagramHandle!);
    }
    expect(await unnotified(recipient.id)).toBe(0);

    // Nothing new: nothing sent. One new vote: a notice counting one.
    clock.advance(10 * 60 * 1000);
    expect(await runOnce(clock, provider)).toMatchObject({ queued: 0 });
    await giveVotes(db(), recipient.id, [voters[0]!.id], clock.now());
    clock.advance(10 * 60 * 1000);
    await runOnce(clock, provider);
    expect(textsTo(provider, recipient.phone)).toHaveLength(2);
    expect(textsTo(provider, recipient.phone)[1]).toMatch(/^You got 1 new vote on Quad!/);
  });

  it("wait out quiet hours in each school's own zone, then count every waiting vote", async () => {
    // 02:30 UTC: 21:30 in New York (quiet), 18:30 in Los Angeles (allowed).
    const clock = testClock("2026-03-06T02:30:00Z");
    const east = await student("America/New_York");
    const west = await student("America/Los_Angeles");
    await giveVotes(
      db(),
      east.recipient.id,
      east.voters.slice(0, 2).map((v) => v.id),
      clock.now(),
    );
    await giveVotes(
      db(),
      west.recipient.id,
      west.voters.slice(0, 2).map((v) => v.id),
      clock.now(),
    );
    const provider = fakeProvider();

    expect(await runOnce(clock, provider)).toMatchObject({ queued: 1, quiet: 1 });
    expect(textsTo(provider, west.recipient.phone)).toHaveLength(1);
    expect(textsTo(provider, east.recipient.phone)).toEqual([]);
    expect(await unnotified(east.recipient.id)).toBe(2);

    // More votes arrive overnight; at 08:50 in New York it is still quiet.
    await giveVotes(
      db(),
      east.recipient.id,
      east.voters.slice(2).map((v) => v.id),
      new Date("2026-03-06T08:00:00Z"),
    );
    clock.set("2026-03-06T13:50:00Z");
    await runOnce(clock, provider);
    expect(textsTo(provider, east.recipient.phone)).toEqual([]);
    // 09:00 in New York (05:00 in Los Angeles, quiet there: nothing new for west anyway).
    clock.set("2026-03-06T14:00:00Z");
    await runOnce(clock, provider);
    expect(textsTo(provider, east.recipient.phone)).toEqual([
      "You got 5 new votes on Quad! See who voted for you: https://quad.example/home Reply STOP to opt out.",
    ]);
  });

  it("send at most 3 a day (the school's local day): the 4th waits for the next day", async () => {
    // 17:00 UTC is 09:00 in Los Angeles (PST).
    const clock = testClock("2026-03-05T17:00:00Z");
    const { recipient, voters } = await student("America/Los_Angeles");
    const provider = fakeProvider();
    for (let i = 0; i < 4; i++) {
      await giveVotes(db(), recipient.id, [voters[i]!.id], clock.now());
      await runOnce(clock, provider);
      clock.advance(HOUR);
    }
    expect(textsTo(provider, recipient.phone)).toHaveLength(3);
    expect(await unnotified(recipient.id)).toBe(1);

    // Two more votes in the evening; 20:59 local is still the same day.
    await giveVotes(db(), recipient.id, [voters[4]!.id, voters[0]!.id], clock.now());
    clock.set("2026-03-06T04:59:00Z");
    expect(await runOnce(clock, provider)).toMatchObject({ capped: 1 });
    // Local midnight passes during quiet hours; the next allowed moment is 09:00 on the 6th.
    clock.set("2026-03-06T08:30:00Z");
    expect(await runOnce(clock, provider)).toMatchObject({ quiet: 1 });
    clock.set("2026-03-06T17:00:00Z");
    await runOnce(clock, provider);
    const texts = textsTo(provider, recipient.phone);
    expect(texts).toHaveLength(4);
    expect(texts[3]).toMatch(/^You got 3 new votes on Quad!/);
  });

  it("never text a number that replied STOP, or turned texts off, or never consented", async () => {
    const clock = testClock("2026-03-05T20:00:00Z");
    const stopped = await student();
    const switchedOff = await student();
    const neverAsked = await student();
    await recordSmsKeywordConsent(db(), stopped.recipient.phone, "STOP", false, new Date("2026-03-02T00:00:00Z"));
    // The STOP outranks a later settings switch: only START undoes it.
    await setSmsConsent(db(), stopped.recipient.phone, true, new Date("2026-03-03T00:00:00Z"));
    await setSmsConsent(db(), switchedOff.recipient.phone, false, new Date("2026-03-02T00:00:00Z"));
    const lonely = await insertTestUser(db(), { schoolId: neverAsked.school.id });
    for (const s of [stopped, switchedOff])
      await giveVotes(
        db(),
        s.recipient.id,
        s.voters.map((v) => v.id),
        clock.now(),
      );
    await giveVotes(db(), lonely.id, [neverAsked.voters[0]!.id], clock.now());
    const provider = fakeProvider();

    expect(await runOnce(clock, provider)).toMatchObject({ queued: 0, noConsent: 3 });
    expect(provider.calls).toEqual([]);
    expect(await db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, stopped.recipient.phone))).toEqual([]);

    // START: the votes that waited are counted in the next notice.
    await recordSmsKeywordConsent(db(), stopped.recipient.phone, "START", true, clock.now());
    clock.advance(10 * 60 * 1000);
    await runOnce(clock, provider);
    expect(provider.delivered.map((m) => m.to)).toEqual([stopped.recipient.phone]);
    expect(provider.delivered[0]!.body).toMatch(/^You got 5 new votes/);
  });

  it("find the students with waiting votes by one index probe each, however many votes wait", async () => {
    // Students who never consent keep their votes waiting for good: 3 of them with 60 each.
    const school = await insertTestSchool(db());
    const voters = await Promise.all(Array.from({ length: 60 }, () => insertTestUser(db(), { schoolId: school.id })));
    for (let i = 0; i < 3; i++) {
      const silent = await insertTestUser(db(), { schoolId: school.id });
      await giveVotes(
        db(),
        silent.id,
        voters.map((v) => v.id),
        new Date("2026-03-05T19:00:00Z"),
      );
    }
    await db().execute(sql`analyze votes`);
    const [waiting] = await queryRows<{ votes: number; recipients: number }>(
      db(),
      sql`select count(*)::int as votes, count(distinct recipient_id)::int as recipients from votes where notified_at is null`,
    );
    const [plan] = await queryRows<{ "QUERY PLAN": unknown }>(
      db(),
      sql`explain (analyze, format json) ${waitingRecipients(new Date())}`,
    );
    const read = rowsReadFrom(fromJson(plan!["QUERY PLAN"]), "votes");
    expect(waiting!.votes).toBeGreaterThanOrEqual(180);
    // One probe per student plus the one that finds no more: never a row per waiting vote.
    expect(read.scans).toEqual(["Index Only Scan"]);
    expect(read.rows).toBeLessThanOrEqual(waiting!.recipients + 1);
  });

  it("mark votes notified and queue the notice in one transaction: a failed queue insert leaves the votes waiting", async () => {
    const clock = testClock("2026-03-05T20:00:00Z");
    const { recipient, voters } = await student();
    await giveVotes(db(), recipient.id, [voters[0]!.id, voters[1]!.id], clock.now());
    // Make the insert into sms_outbox fail for this phone only.
    await db().execute(
      sql.raw(`create or replace function refuse_outbox() returns trigger language plpgsql as $$
       begin if new.to_phone = '${recipient.phone}' then raise exception 'outbox unavailable'; end if; return new; end $$`),
    );
    await db().execute(
      sql`create trigger refuse_outbox before insert on sms_outbox for each row execute function refuse_outbox()`,
    );
    try {
      await expect(queueVoteNotices({ db: db(), now: clock.now, publicUrl: PUBLIC_URL })).rejects.toThrow();
      expect(await unnotified(recipient.id)).toBe(2);
    } finally {
      await db().execute(sql`drop trigger refuse_outbox on sms_outbox`);
    }
    expect(await queueVoteNotices({ db: db(), now: clock.now, publicUrl: PUBLIC_URL })).toMatchObject({ queued: 1 });
    expect(await unnotified(recipient.id)).toBe(0);
  });
});

describe("the 10-minute job across two server processes", () => {
  it("sends each student one notice per batch, never twice, with two schedulers and two senders ticking together", async () => {
    const other = await secondConnection(handle, serverUrl);
    try {
      const clock = testClock("2026-03-07T20:00:00Z");
      const students = [await student(), await student(), await student()];
      for (const s of students)
        await giveVotes(
          db(),
          s.recipient.id,
          s.voters.map((v) => v.id),
          clock.now(),
        );
      const providers = [fakeProvider(), fakeProvider()];
      // One list in the order the texts went out, whichever process sent each.
      const delivered: { to: string; body: string }[] = [];
      for (const provider of providers) {
        const deliver = provider.deliver.bind(provider);
        provider.deliver = async (message) => {
          const sent = await deliver(message);
          delivered.push(message);
          return sent;
        };
      }
      const quietLog = { info: () => {}, error: () => {} };
      const schedulers = [handle, other].map((h, i) =>
        createJobScheduler({
          db: h.db,
          now: clock.now,
          log: quietLog,
          jobs: [
            notificationJob({
              db: h.db,
              provider: providers[i]!,
              now: clock.now,
              publicUrl: PUBLIC_URL,
              log: quietLog,
            }),
          ],
        }),
      );
      for (let step = 0; step < 6; step++) {
        await Promise.all(schedulers.map((s) => s.tick()));
        if (step === 2) for (const s of students) await giveVotes(db(), s.recipient.id, [s.voters[0]!.id], clock.now());
        clock.advance(5 * 60 * 1000);
      }
      for (const s of students) {
        const texts = delivered.filter((m) => m.to === s.recipient.phone).map((m) => m.body.slice(0, 24));
        expect(texts).toEqual(["You got 5 new votes on Q", "You got 1 new vote on Qu"]);
      }
      const rows = await db()
        .select()
        .from(smsOutbox)
        .where(eq(smsOutbox.kind, "notification"))
        .orderBy(asc(smsOutbox.createdAt));
      const ours = rows.filter((r) => students.some((s) => s.recipient.phone === r.toPhone));
      expect(ours.map((r) => r.status)).toEqual(Array(6).fill("sent"));
    } finally {
      await other.close();
    }
  });
});

import type { DatabaseHandle } from "@quad/db";
import { smsOutbox } from "@quad/db/schema";
import { createTestDatabase, insertTestSchool, insertTestUser } from "@quad/db/testing";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consentTo, fakeProvider, secondConnection, testClock } from "../../test/sms";
import { setSmsConsent } from "../consents/service";
import { OUTBOX as SMS_QUEUE, retryDelayMs } from "../../outbox/outbox";
import { applyDeliveryStatus, sendQueuedMessages } from "./queue";
import { createSmsSender, SmsDeliveryError } from "./sender";

const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim() || undefined;
const MINUTE = 60_000;
// 18:00 UTC: 10:00 in Los Angeles, 13:00 in New York: not quiet anywhere in the US mainland.
const NOON = "2026-03-03T18:00:00Z";

let first: DatabaseHandle;
let second: DatabaseHandle;
beforeAll(async () => {
  first = await createTestDatabase();
  second = await secondConnection(first, serverUrl);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

let phoneCounter = 0;
const newPhone = () => `+1555${String(process.pid % 1000).padStart(3, "0")}${String(++phoneCounter).padStart(4, "0")}`;

async function queue(
  to: string,
  at: Date,
  kind: "notification" | "code" | "system" = "notification",
  body = "You got 2 new votes on Quad!",
) {
  const [row] = await first.db
    .insert(smsOutbox)
    .values({ toPhone: to, body, kind, status: "queued", createdAt: at })
    .returning();
  return row!;
}
const rowOf = async (id: string) => (await first.db.select().from(smsOutbox).where(eq(smsOutbox.id, id)))[0]!;

describe("sending the queue", () => {
  it("sends each queued message exactly once even with two senders draining at the same time", async () => {
    const clock = testClock(NOON);
    const phones = Array.from({ length: 30 }, newPhone);
    for (const phone of phones) await consentTo(first.db, phone, new Date(Date.parse(NOON) - MINUTE));
    const ids = [];
    for (const phone of phones) ids.push((await queue(phone, clock.now())).id);

    const a = fakeProvider();
    const b = fakeProvider();
    const slow = () => new Promise<void>((r) => setTimeout(r, 2));
    a.behaviour = slow;
    b.behaviour = slow;
    const [ra, rb] = await Promise.all([
      sendQueuedMessages({ db: first.db, provider: a, now: clock.now }),
      sendQueuedMessages({ db: second.db, provider: b, now: clock.now }),
    ]);
    const delivered = [...a.delivered, ...b.delivered].map((m) => m.to).sort();
    expect(delivered).toEqual([...phones].sort());
    expect(ra.sent + rb.sent).toBe(30);
    const rows = await first.db.select().from(smsOutbox).where(inArray(smsOutbox.id, ids));
    expect(
      rows.every((r) => r.status === "sent" && r.attempts === 1 && r.providerMessageId?.startsWith("SMfake")),
    ).toBe(true);

    // Draining again sends nothing.
    await sendQueuedMessages({ db: first.db, provider: a, now: clock.now });
    expect(a.delivered.length + b.delivered.length).toBe(30);
  });

  it("puts a message back after a retryable provider error and sends it once later", async () => {
    const clock = testClock(NOON);
    const phone = newPhone();
    await consentTo(first.db, phone, clock.now());
    const { id } = await queue(phone, clock.now());
    const provider = fakeProvider();
    provider.behaviour = (_m, call) => {
      if (call === 1) throw new SmsDeliveryError("Twilio 503: Service Unavailable", true);
    };

    expect(await sendQueuedMessages({ db: first.db, provider, now: clock.now })).toMatchObject({
      sent: 0,
      retrying: 1,
    });
    expect(await rowOf(id)).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "Twilio 503: Service Unavailable",
    });

    // Not before its time...
    await sendQueuedMessages({ db: first.db, provider, now: clock.now });
    expect(provider.calls).toHaveLength(1);
    // ...then once.
    clock.advance(retryDelayMs(1));
    expect(await sendQueuedMessages({ db: first.db, provider, now: clock.now })).toMatchObject({ sent: 1 });
    await sendQueuedMessages({ db: first.db, provider, now: clock.now });
    expect(provider.calls).toHaveLength(2);
    expect(provider.delivered).toHaveLength(1);
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 2, lastError: null });
  });

  it("gives up after the bounded number of attempts", async () => {
    const clock = testClock(NOON);
    const phone = newPhone();
    await consentTo(first.db, phone, clock.now());
    const { id } = await queue(phone, clock.now());
    const provider = fakeProvider();
    provider.behaviour = () => {
      throw new SmsDeliveryError("Twilio 429: Too Many Requests", true);
    };
    for (let i = 0; i < SMS_QUEUE.maxAttempts + 2; i++) {
      await sendQueuedMessages({ db: first.db, provider, now: clock.now });
      clock.advance(SMS_QUEUE.retryMaxDelayMs);
    }
    expect(provider.calls).toHaveLength(SMS_QUEUE.maxAttempts);
    expect(await rowOf(id)).toMatchObject({ status: "failed", attempts: SMS_QUEUE.maxAttempts });
  });

  it("fails, and never resends, a message whose outcome is unknown or that was refused for good", async () => {
    const clock = testClock(NOON);
    const [p1, p2] = [newPhone(), newPhone()];
    for (const p of [p1, p2]) await consentTo(first.db, p, clock.now());
    const unknown = await queue(p1!, clock.now());
    const refused = await queue(p2!, clock.now());
    const provider = fakeProvider();
    provider.behaviour = (m) => {
      if (m.to === p1) throw new SmsDeliveryError("Twilio request timed out: outcome unknown", false, true);
      throw new SmsDeliveryError("Twilio 400: 21211 invalid To", false);
    };
    await sendQueuedMessages({ db: first.db, provider, now: clock.now });
    clock.advance(SMS_QUEUE.retryMaxDelayMs * 10);
    await sendQueuedMessages({ db: first.db, provider, now: clock.now });
    expect(provider.calls).toHaveLength(2);
    expect(await rowOf(unknown.id)).toMatchObject({
      status: "failed",
      lastError: "Twilio request timed out: outcome unknown",
    });
    expect(await rowOf(refused.id)).toMatchObject({ status: "failed", lastError: "Twilio 400: 21211 invalid To" });
  });

  it("after a crash mid-batch, marks the message left 'sending' failed once past the timeout, and never resends it", async () => {
    const clock = testClock(NOON);
    const phone = newPhone();
    await consentTo(first.db, phone, clock.now());
    // A sender claimed this one and died before recording the outcome.
    const [crashed] = await first.db
      .insert(smsOutbox)
      .values({
        toPhone: phone,
        body: "You got 4 new votes on Quad!",
        kind: "notification",
        status: "sending",
        attempts: 1,
        createdAt: clock.now(),
        claimedAt: clock.now(),
      })
      .returning();
    const provider = fakeProvider();

    clock.advance(SMS_QUEUE.sendingTimeoutMs - 1);
    expect(await sendQueuedMessages({ db: first.db, provider, now: clock.now })).toMatchObject({ abandoned: 0 });
    expect((await rowOf(crashed!.id)).status).toBe("sending");

    clock.advance(2);
    expect(await sendQueuedMessages({ db: first.db, provider, now: clock.now })).toMatchObject({ abandoned: 1 });
    clock.advance(SMS_QUEUE.retryMaxDelayMs);
    await sendQueuedMessages({ db: first.db, provider, now: clock.now });
    expect(provider.calls).toEqual([]);
    expect(await rowOf(crashed!.id)).toMatchObject({
      status: "failed",
      attempts: 1,
      lastError: expect.stringMatching(/outcome unknown/),
    });
  });

  it("after a crash mid-batch, the next run sends every text that was not in flight; only those stay in doubt", async () => {
    const clock = testClock(NOON);
    const phones = Array.from({ length: SMS_QUEUE.batchSize }, newPhone);
    for (const phone of phones) await consentTo(first.db, phone, new Date(Date.parse(NOON) - MINUTE));
    const ids: string[] = [];
    for (const phone of phones)
      ids.push((await queue(phone, clock.now(), "notification", "You got 5 new votes on Quad!")).id);
    const ours = new Set(phones);

    // The process dies during its 18th provider call: that call and those in flight beside it never return.
    const crashing = fakeProvider();
    const deliveredBeforeCrash = 17;
    crashing.behaviour = (_m, call) => (call > deliveredBeforeCrash ? new Promise<never>(() => {}) : undefined);
    void sendQueuedMessages({ db: first.db, provider: crashing, now: clock.now });
    await expect
      .poll(() => crashing.calls.length, { timeout: 10_000 })
      .toBe(deliveredBeforeCrash + SMS_QUEUE.concurrency);
    const inFlight = new Set(crashing.calls.slice(deliveredBeforeCrash).map((m) => m.to));

    // The next run, once the in-flight claims have timed out.
    clock.advance(SMS_QUEUE.sendingTimeoutMs + 1);
    const next = fakeProvider();
    await sendQueuedMessages({ db: first.db, provider: next, now: clock.now });

    const deliveredBefore = crashing.delivered.filter((m) => ours.has(m.to)).map((m) => m.to);
    const deliveredAfter = next.delivered.filter((m) => ours.has(m.to)).map((m) => m.to);
    const lost = phones.filter((p) => !deliveredBefore.includes(p) && !deliveredAfter.includes(p) && !inFlight.has(p));
    expect(deliveredBefore).toHaveLength(deliveredBeforeCrash);
    expect(lost).toEqual([]);
    // Nothing is sent twice: the in-flight texts are not resent, the others go out once.
    expect(deliveredAfter.filter((p) => inFlight.has(p) || deliveredBefore.includes(p))).toEqual([]);
    expect(deliveredAfter).toHaveLength(phones.length - deliveredBeforeCrash - SMS_QUEUE.concurrency);
    const rows = await first.db.select().from(smsOutbox).where(inArray(smsOutbox.id, ids));
    const failed = rows.filter((r) => r.status === "failed");
    expect(failed.map((r) => r.toPhone).sort()).toEqual([...inFlight].sort());
    expect(failed.every((r) => /outcome unknown/.test(r.lastError ?? ""))).toBe(true);
  });

  it("does not claim a message another sender put back for a later retry after this one read it", async () => {
    const clock = testClock(NOON);
    const phones = Array.from({ length: SMS_QUEUE.concurrency + 1 }, newPhone);
    for (const phone of phones) await consentTo(first.db, phone, new Date(Date.parse(NOON) - MINUTE));
    for (const phone of phones) await queue(phone, clock.now());

    // A has read the batch and its workers are busy with their first texts...
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const a = fakeProvider();
    a.behaviour = (_m, call) => (call <= SMS_QUEUE.concurrency ? gate : undefined);
    const drainA = sendQueuedMessages({ db: first.db, provider: a, now: clock.now });
    await expect.poll(() => a.calls.length, { timeout: 10_000 }).toBe(SMS_QUEUE.concurrency);
    // ...when B tries the rest and Twilio asks it to come back later.
    const b = fakeProvider();
    b.behaviour = () => {
      throw new SmsDeliveryError("Twilio 503: Service Unavailable", true);
    };
    await sendQueuedMessages({ db: second.db, provider: b, now: clock.now });
    release();
    await drainA;

    // The one A had not started yet went to B, which put it back for later: A must leave it.
    const leftOver = phones.find((p) => !a.calls.slice(0, SMS_QUEUE.concurrency).some((m) => m.to === p))!;
    expect(b.calls.map((m) => m.to)).toContain(leftOver);
    expect(a.calls.slice(SMS_QUEUE.concurrency).map((m) => m.to)).not.toContain(leftOver);
    const [row] = await first.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, leftOver));
    expect(row).toMatchObject({ status: "queued", attempts: 1 });
  });

  it("drops a queued notice when the number stopped consenting before it went out", async () => {
    const clock = testClock(NOON);
    const phone = newPhone();
    await consentTo(first.db, phone, new Date(Date.parse(NOON) - MINUTE));
    const { id } = await queue(phone, clock.now());
    await setSmsConsent(first.db, phone, false, clock.now());
    const provider = fakeProvider();
    expect(await sendQueuedMessages({ db: first.db, provider, now: clock.now })).toMatchObject({
      suppressed: 1,
      sent: 0,
    });
    expect(provider.calls).toEqual([]);
    expect((await rowOf(id)).status).toBe("failed");
  });

  it("holds a notice during the recipient's quiet hours, but not a sign-in code", async () => {
    const clock = testClock("2026-03-03T06:00:00Z"); // 01:00 in New York
    const school = await insertTestSchool(first.db, { timeZone: "America/New_York" });
    const student = await insertTestUser(first.db, { schoolId: school.id });
    await consentTo(first.db, student.phone, clock.now());
    const notice = await queue(student.phone, clock.now());
    const code = await queue(student.phone, clock.now(), "code", "123456 is your Quad verification code.");
    const provider = fakeProvider();
    await sendQueuedMessages({ db: first.db, provider, now: clock.now });
    expect(provider.delivered.map((m) => m.body)).toEqual(["123456 is your Quad verification code."]);
    expect((await rowOf(notice.id)).status).toBe("queued");
    expect((await rowOf(code.id)).status).toBe("sent");

    clock.set("2026-03-03T14:00:00Z"); // 09:00 in New York
    await sendQueuedMessages({ db: first.db, provider, now: clock.now });
    expect((await rowOf(notice.id)).status).toBe("sent");
  });
});

describe("sending now (sign-in codes)", () => {
  it("records the message, sends it through the provider and stores its id", async () => {
    const clock = testClock(NOON);
    const provider = fakeProvider();
    const phone = newPhone();
    await createSmsSender(first.db, provider, clock.now).send({ to: phone, body: "123456 is your code", kind: "code" });
    const [row] = await first.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));
    expect(row).toMatchObject({
      status: "sent",
      kind: "code",
      attempts: 1,
      providerMessageId: expect.stringMatching(/^SMfake/),
    });
  });

  it("sends a code to a number that replied STOP (the person asked for it), but no notification", async () => {
    const clock = testClock(NOON);
    const provider = fakeProvider();
    const phone = newPhone();
    await consentTo(first.db, phone, clock.now(), false, "sms:STOP");
    const sender = createSmsSender(first.db, provider, clock.now);
    await sender.send({ to: phone, body: "You got 1 new vote on Quad!", kind: "notification" });
    await sender.send({ to: phone, body: "123456 is your code", kind: "code" });
    expect(provider.delivered.map((m) => m.body)).toEqual(["123456 is your code"]);
  });

  it("marks the message failed with the provider's error and throws", async () => {
    const clock = testClock(NOON);
    const provider = fakeProvider();
    provider.behaviour = () => {
      throw new SmsDeliveryError("Twilio 400: 21211 invalid To", false);
    };
    const phone = newPhone();
    await expect(
      createSmsSender(first.db, provider, clock.now).send({ to: phone, body: "code", kind: "code" }),
    ).rejects.toThrow("21211");
    const [row] = await first.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));
    expect(row).toMatchObject({ status: "failed", lastError: "Twilio 400: 21211 invalid To" });
  });
});

describe("delivery status", () => {
  it("moves a message forward (sent → delivered, or failed with the error) and never back", async () => {
    const clock = testClock(NOON);
    const provider = fakeProvider();
    const phone = newPhone();
    await createSmsSender(first.db, provider, clock.now).send({ to: phone, body: "123456", kind: "code" });
    const [row] = await first.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, phone));
    const sid = row!.providerMessageId!;

    expect(await applyDeliveryStatus(first.db, { providerMessageId: sid, status: "delivered" })).toBe(true);
    expect(await applyDeliveryStatus(first.db, { providerMessageId: sid, status: "sent" })).toBe(false);
    expect((await rowOf(row!.id)).status).toBe("delivered");
    expect(await applyDeliveryStatus(first.db, { providerMessageId: "SMunknown", status: "delivered" })).toBe(false);

    await createSmsSender(first.db, provider, clock.now).send({ to: phone, body: "654321", kind: "code" });
    const [second] = await first.db.select().from(smsOutbox).where(eq(smsOutbox.body, "654321"));
    await applyDeliveryStatus(first.db, {
      providerMessageId: second!.providerMessageId!,
      status: "undelivered",
      errorCode: "30003",
    });
    expect(await rowOf(second!.id)).toMatchObject({ status: "failed", lastError: "undelivered (Twilio error 30003)" });
  });
});

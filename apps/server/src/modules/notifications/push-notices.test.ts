import type { DatabaseHandle } from "@quad/db";
import { pushDeliveries, pushSubscriptions, type User } from "@quad/db/schema";
import { createTestDatabase, insertTestSchool, insertTestUser } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  browserSubscription,
  pushSenderFor,
  startFakePushService,
  type BrowserSubscription,
  type FakePushService,
} from "../../test/push-service";
import { consentTo, fakeProvider, giveVotes, testClock, type FakeProvider } from "../../test/sms";
import { OUTBOX as PUSH_QUEUE, retryDelayMs as pushRetryDelayMs } from "../../outbox/outbox";
import type { PushSender } from "../push/sender";
import { pushEndpointPolicy } from "../push/endpoint-policy";
import { subscribeDevice } from "../push/subscriptions";
import { notificationJob } from "./job";
import { textInsteadOfPush } from "./push-fallback";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

let handle: DatabaseHandle;
let service: FakePushService;
let push: PushSender;
beforeAll(async () => {
  handle = await createTestDatabase();
  service = await startFakePushService();
  push = pushSenderFor(service);
});
afterAll(async () => {
  await handle?.close();
  await service?.close();
});
beforeEach(() => {
  service.answer = () => 201;
});
const db = () => handle.db;

/** A student at a school in Los Angeles who consented to texts (unless told otherwise), with voters. */
async function student(name: string, { textsAllowed = true } = {}) {
  const school = await insertTestSchool(db(), { timeZone: "America/Los_Angeles" });
  const recipient = await insertTestUser(db(), { schoolId: school.id, firstName: name });
  if (textsAllowed) await consentTo(db(), recipient.phone, new Date("2026-01-01T00:00:00Z"));
  const voters: User[] = [];
  for (const voter of ["Zelda", "Quincy", "Xavier"])
    voters.push(await insertTestUser(db(), { schoolId: school.id, firstName: voter }));
  return { recipient, voters };
}

async function turnPushOn(recipient: User, device: string): Promise<BrowserSubscription> {
  const browser = browserSubscription(service.endpoint(device));
  await subscribeDevice(db(), recipient.id, browser, new Date(), { policy: pushEndpointPolicy({ production: false }) });
  return browser;
}

/** One run of the 10-minute job with push on. */
function run(clock: { now: () => Date }, sms: FakeProvider) {
  const quiet = { info: () => {} };
  const job = notificationJob({
    db: db(),
    provider: sms,
    push,
    now: clock.now,
    publicUrl: "https://quad.example",
    log: quiet,
  });
  return job.run(new AbortController().signal);
}

/** The notices a device received, decrypted with its own keys. */
function received(browser: BrowserSubscription): { title: string; url: string; count: number }[] {
  const path = new URL(browser.endpoint).pathname;
  return service.requests
    .filter((r) => r.path === path && r.body.length > 0)
    .map((r) => JSON.parse(browser.decrypt(r.body)));
}
const textsTo = (sms: FakeProvider, phone: string) => sms.delivered.filter((m) => m.to === phone).map((m) => m.body);

describe("vote notices by push", () => {
  it("go by push to every device of a student who turned it on, instead of a text; others still get texts", async () => {
    const clock = testClock("2026-03-05T20:00:00Z"); // 12:00 in Los Angeles
    const pushed = await student("Robin");
    const texted = await student("Sam");
    const phone = await turnPushOn(pushed.recipient, "robin-phone");
    const laptop = await turnPushOn(pushed.recipient, "robin-laptop");
    await giveVotes(
      db(),
      pushed.recipient.id,
      pushed.voters.map((v) => v.id),
      clock.now(),
    );
    await giveVotes(db(), texted.recipient.id, [texted.voters[0]!.id], clock.now());
    const sms = fakeProvider();

    await run(clock, sms);

    for (const device of [phone, laptop]) {
      expect(received(device)).toEqual([
        {
          title: "You got 3 new votes on Quad!",
          body: "Tap to see who voted for you.",
          url: "/home?votes=1",
          count: 3,
        },
      ]);
    }
    const raw = service.requests.map((r) => r.body.toString("latin1")).join("");
    for (const voter of pushed.voters) expect(raw).not.toContain(voter.firstName!);
    expect(textsTo(sms, pushed.recipient.phone)).toEqual([]);
    expect(textsTo(sms, texted.recipient.phone)).toHaveLength(1);
  });

  it("wait out quiet hours in the school's zone and keep to the daily cap shared with texts", async () => {
    const clock = testClock("2026-03-05T17:00:00Z"); // 09:00 in Los Angeles
    const { recipient, voters } = await student("Kim");
    const sms = fakeProvider();
    // Two notices by text in the morning...
    for (let i = 0; i < 2; i++) {
      await giveVotes(db(), recipient.id, [voters[i]!.id], clock.now());
      await run(clock, sms);
      clock.advance(HOUR);
    }
    expect(textsTo(sms, recipient.phone)).toHaveLength(2);
    // ...then push is turned on: one more notice today, by push, and then none.
    const device = await turnPushOn(recipient, "kim-phone");
    for (let i = 0; i < 2; i++) {
      await giveVotes(db(), recipient.id, [voters[2]!.id], clock.now());
      await run(clock, sms);
      clock.advance(HOUR);
    }
    expect(received(device)).toHaveLength(1);
    expect(textsTo(sms, recipient.phone)).toHaveLength(2);

    // 22:00 local the next day: quiet hours, nothing; 09:00 after that: one push counting what waited.
    clock.set("2026-03-07T06:00:00Z");
    await run(clock, sms);
    expect(received(device)).toHaveLength(1);
    clock.set("2026-03-07T17:00:00Z");
    await run(clock, sms);
    expect(received(device).map((n) => n.count)).toEqual([1, 1]);
  });

  it("forget a device the push service calls gone (410), and text the student again once no device is left", async () => {
    const clock = testClock("2026-03-05T20:00:00Z");
    const { recipient, voters } = await student("Lee");
    const device = await turnPushOn(recipient, "lee-phone");
    service.answer = (request) => (request.path.endsWith("/lee-phone") ? 410 : 201);
    const sms = fakeProvider();
    await giveVotes(db(), recipient.id, [voters[0]!.id], clock.now());
    await run(clock, sms);
    expect(await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint))).toEqual(
      [],
    );

    // The notice no device got goes by text at once...
    const text = "You got 1 new vote on Quad! See who voted for you: https://quad.example/home Reply STOP to opt out.";
    expect(textsTo(sms, recipient.phone)).toEqual([text]);

    // ...and with no device left, the next batch is texted too.
    clock.advance(10 * MINUTE);
    await giveVotes(db(), recipient.id, [voters[1]!.id], clock.now());
    await run(clock, sms);
    expect(textsTo(sms, recipient.phone)).toEqual([text, text]);
  });

  it("retry other failures with backoff, a bounded number of times", async () => {
    const clock = testClock("2026-03-05T18:00:00Z"); // 10:00 in Los Angeles
    const { recipient, voters } = await student("Max");
    const device = await turnPushOn(recipient, "max-phone");
    const path = new URL(device.endpoint).pathname;
    const attempts = () => service.requests.filter((r) => r.path === path).length;
    service.answer = (request) => (request.path === path ? 503 : 201);
    const sms = fakeProvider();
    await giveVotes(db(), recipient.id, [voters[0]!.id], clock.now());
    const delivery = async () =>
      (
        await db()
          .select()
          .from(pushDeliveries)
          .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushDeliveries.subscriptionId))
          .where(eq(pushSubscriptions.endpoint, device.endpoint))
      )[0]!.push_deliveries;

    await run(clock, sms);
    expect(attempts()).toBe(1);
    expect(await delivery()).toMatchObject({ status: "queued", attempts: 1, lastError: "push service answered 503" });
    // Not before the backoff has passed.
    clock.advance(pushRetryDelayMs(1) - MINUTE);
    await run(clock, sms);
    expect(attempts()).toBe(1);
    for (let attempt = 1; attempt < PUSH_QUEUE.maxAttempts; attempt++) {
      clock.advance(pushRetryDelayMs(attempt));
      await run(clock, sms);
    }
    expect(attempts()).toBe(PUSH_QUEUE.maxAttempts);
    clock.advance(2 * HOUR);
    await run(clock, sms);
    expect(attempts()).toBe(PUSH_QUEUE.maxAttempts);
    // The device stays subscribed; the notice it never got went by text (below).
    expect(
      await db().select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.endpoint)),
    ).toHaveLength(1);
    expect(textsTo(sms, recipient.phone)).toHaveLength(1);
  });
});

describe("a push no device received", () => {
  /** The first run and every retry, each when its backoff has passed: after it, every try is spent. */
  async function runThroughLastTry(clock: ReturnType<typeof testClock>, sms: FakeProvider) {
    await run(clock, sms);
    for (let attempt = 1; attempt < PUSH_QUEUE.maxAttempts; attempt++) {
      clock.advance(pushRetryDelayMs(attempt));
      await run(clock, sms);
    }
  }
  const votesText = (n: number) =>
    `You got ${n} new vote${n === 1 ? "" : "s"} on Quad! See who voted for you: https://quad.example/home Reply STOP to opt out.`;
  const answerFor = (devices: BrowserSubscription[], status: number) => {
    const paths = new Set(devices.map((d) => new URL(d.endpoint).pathname));
    service.answer = (request) => (paths.has(request.path) ? status : 201);
  };

  it("is texted once after the last try when the push service answers 500 every time", async () => {
    const clock = testClock("2026-03-05T18:00:00Z"); // 10:00 in Los Angeles
    const { recipient, voters } = await student("Ana");
    const device = await turnPushOn(recipient, "ana-phone");
    answerFor([device], 500);
    const sms = fakeProvider();
    await giveVotes(
      db(),
      recipient.id,
      voters.map((v) => v.id),
      clock.now(),
    );

    await run(clock, sms);
    for (let attempt = 1; attempt < PUSH_QUEUE.maxAttempts - 1; attempt++) {
      clock.advance(pushRetryDelayMs(attempt));
      await run(clock, sms);
    }
    // Tries left: no text yet.
    expect(textsTo(sms, recipient.phone)).toEqual([]);
    clock.advance(pushRetryDelayMs(PUSH_QUEUE.maxAttempts - 1));
    await run(clock, sms);

    expect(textsTo(sms, recipient.phone)).toEqual([votesText(3)]);
    // Nothing more: the votes are counted, the text is not repeated.
    clock.advance(HOUR);
    await run(clock, sms);
    expect(textsTo(sms, recipient.phone)).toEqual([votesText(3)]);
  });

  it("is texted at once when every device of the student is gone (410)", async () => {
    const clock = testClock("2026-03-05T18:00:00Z");
    const { recipient, voters } = await student("Ben");
    const devices = [await turnPushOn(recipient, "ben-phone"), await turnPushOn(recipient, "ben-laptop")];
    answerFor(devices, 410);
    const sms = fakeProvider();
    await giveVotes(db(), recipient.id, [voters[0]!.id, voters[1]!.id], clock.now());
    await run(clock, sms);
    expect(textsTo(sms, recipient.phone)).toEqual([votesText(2)]);
  });

  it("is not texted when another device of the student got it", async () => {
    const clock = testClock("2026-03-05T18:00:00Z");
    const { recipient, voters } = await student("Cy");
    const failing = await turnPushOn(recipient, "cy-phone");
    const working = await turnPushOn(recipient, "cy-laptop");
    answerFor([failing], 500);
    const sms = fakeProvider();
    await giveVotes(db(), recipient.id, [voters[0]!.id], clock.now());
    await runThroughLastTry(clock, sms);
    expect(received(working)).toHaveLength(1);
    expect(textsTo(sms, recipient.phone)).toEqual([]);
  });

  it("is not texted to a student without SMS consent, and its votes wait for the next push that gets through", async () => {
    const clock = testClock("2026-03-05T18:00:00Z");
    const { recipient, voters } = await student("Dee", { textsAllowed: false });
    const device = await turnPushOn(recipient, "dee-phone");
    answerFor([device], 500);
    const sms = fakeProvider();
    await giveVotes(db(), recipient.id, [voters[0]!.id, voters[1]!.id], clock.now());
    await runThroughLastTry(clock, sms);
    expect(sms.calls.filter((m) => m.to === recipient.phone)).toEqual([]);

    // The push service works again: the next notice counts the votes that were never delivered.
    service.answer = () => 201;
    const tried = received(device).length;
    clock.advance(HOUR);
    await run(clock, sms);
    expect(
      received(device)
        .slice(tried)
        .map((n) => n.count),
    ).toEqual([2]);
    expect(sms.calls.filter((m) => m.to === recipient.phone)).toEqual([]);
  });

  it("is not texted in quiet hours; its votes go by text in the morning", async () => {
    const clock = testClock("2026-03-06T04:58:00Z"); // 20:58 in Los Angeles
    const { recipient, voters } = await student("Eve");
    const device = await turnPushOn(recipient, "eve-phone");
    const path = new URL(device.endpoint).pathname;
    // The push service takes a while and then says the device is gone: quiet hours have begun meanwhile.
    service.answer = (request) => {
      if (request.path !== path) return 201;
      clock.set("2026-03-06T05:05:00Z"); // 21:05
      return 410;
    };
    const sms = fakeProvider();
    await giveVotes(db(), recipient.id, [voters[0]!.id, voters[1]!.id], clock.now());
    await run(clock, sms);
    clock.set("2026-03-06T07:00:00Z"); // 23:00
    await run(clock, sms);
    expect(sms.calls.filter((m) => m.to === recipient.phone)).toEqual([]);

    clock.set("2026-03-06T17:00:00Z"); // 09:00
    await run(clock, sms);
    expect(textsTo(sms, recipient.phone)).toEqual([votesText(2)]);
  });

  it("does not count against the daily cap: after two texts, a failed push is the day's third notice, by text", async () => {
    const clock = testClock("2026-03-05T17:00:00Z"); // 09:00 in Los Angeles
    const { recipient, voters } = await student("Flo");
    const sms = fakeProvider();
    for (let i = 0; i < 2; i++) {
      await giveVotes(db(), recipient.id, [voters[i]!.id], clock.now());
      await run(clock, sms);
      clock.advance(HOUR);
    }
    const device = await turnPushOn(recipient, "flo-phone");
    answerFor([device], 410);
    await giveVotes(db(), recipient.id, [voters[2]!.id], clock.now());
    await run(clock, sms);
    expect(textsTo(sms, recipient.phone)).toEqual([votesText(1), votesText(1), votesText(1)]);
  });

  it("waiting for a retry, goes by text when its device moves to another student, and never reaches that student", async () => {
    const clock = testClock("2026-03-05T18:00:00Z");
    const first = await student("Gus");
    const second = await student("Hal");
    const device = await turnPushOn(first.recipient, "shared-phone");
    answerFor([device], 503);
    const sms = fakeProvider();
    await giveVotes(db(), first.recipient.id, [first.voters[0]!.id], clock.now());
    await run(clock, sms); // the first try fails; the delivery waits for its retry

    service.answer = () => 201;
    const path = new URL(device.endpoint).pathname;
    const before = service.requests.filter((r) => r.path === path).length;
    await subscribeDevice(db(), second.recipient.id, device, clock.now(), {
      policy: pushEndpointPolicy({ production: false }),
      onDropped: textInsteadOfPush({ db: db(), now: clock.now, publicUrl: "https://quad.example" }),
    });
    clock.advance(HOUR);
    await run(clock, sms);
    expect(service.requests.filter((r) => r.path === path).length).toBe(before);
    expect(textsTo(sms, first.recipient.phone)).toEqual([votesText(1)]);
  });
});

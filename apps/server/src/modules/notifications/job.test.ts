import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobScheduler } from "../../jobs/scheduler";
import { createTestApp, type TestApp } from "../../test/app";
import { testClock } from "../../test/sms";
import { campus } from "../../test/voters";
import { receiveVotes } from "../../test/votes";
import { recordSignupConsents } from "../consents/service";
import { outboxProvider } from "../sms/sender";
import { notificationJob } from "./job";

// End to end on the development setup: outbox provider, dev outbox route, unsigned inbound webhook.
const clock = testClock("2026-03-09T19:00:00Z"); // 12:00 in Los Angeles (PDT)
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, env: { PUBLIC_URL: "https://quad.example" } });
});
afterAll(() => t?.close());

const quietLog = { info: () => {}, error: () => {} };
const outbox = async (phone: string) =>
  (await t.app.inject({ method: "GET", url: `/api/dev/sms-outbox?phone=${encodeURIComponent(phone)}` })).json()
    .messages as { body: string }[];

describe("the notification job on the development outbox", () => {
  it("texts a notice readable at /api/dev/sms-outbox, and nothing more once the number replied STOP", async () => {
    const scheduler = createJobScheduler({
      db: t.deps.db,
      now: clock.now,
      log: quietLog,
      jobs: [
        notificationJob({
          db: t.deps.db,
          provider: outboxProvider,
          now: clock.now,
          publicUrl: t.deps.config.PUBLIC_URL,
          log: quietLog,
        }),
      ],
    });
    const c = await campus(t);
    const recipient = await c.student({ gender: "female", firstName: "Robin" });
    await recordSignupConsents(t.deps.db, recipient.phone, clock.now());
    await receiveVotes(t, {
      recipientId: recipient.id,
      voterIds: [c.me.id, c.me.id, c.me.id],
      at: clock.now(),
      spacingMs: 0,
    });

    expect(await scheduler.tick()).toEqual(["notifications"]);
    expect((await outbox(recipient.phone)).map((m) => m.body)).toEqual([
      "You got 3 new votes on Quad! See who voted for you: https://quad.example/home Reply STOP to opt out.",
    ]);

    const stop = await t.app.inject({
      method: "POST",
      url: "/api/sms/inbound",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ From: recipient.phone, Body: " stop " }).toString(),
    });
    expect(stop.statusCode).toBe(200);

    await receiveVotes(t, { recipientId: recipient.id, voterIds: [c.me.id], at: clock.now() });
    clock.advance(10 * 60 * 1000);
    expect(await scheduler.tick()).toEqual(["notifications"]);
    expect(await outbox(recipient.phone)).toHaveLength(1);
  });
});

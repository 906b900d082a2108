import { LiveEvent } from "@quad/contracts";
import { smsOutbox, votes } from "@quad/db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { openEventStream, type SseEvent } from "../../test/event-stream";
import { inboxClient, type Protocol } from "../../test/inbox-client";
import { testClock } from "../../test/sms";
import { campus, sessionFor } from "../../test/voters";
import { receiveVotes } from "../../test/votes";
import { recordSignupConsents } from "../consents/service";
import { DELIVERY_LAG_MS, DELIVERY_TICK_MS } from "../live/hub";
import { queueVoteNotices } from "../notifications/vote-notices";

const WINDOW_MS = 60_000;
// Noon in Los Angeles (the test schools' zone): outside quiet hours, so a delivered vote is texted.
const clock = testClock("2026-03-09T19:00:00Z");
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, env: { VOTE_DELIVERY_WINDOW_S: String(WINDOW_MS / 1000) } });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t?.close());

const ours = (event: SseEvent): LiveEvent | undefined => {
  const parsed = LiveEvent.safeParse(JSON.parse(event.data));
  return parsed.success ? parsed.data : undefined;
};
const isType = (type: LiveEvent["type"]) => (event: SseEvent) => ours(event)?.type === type;
const ticks = (n: number) => new Promise((resolve) => setTimeout(resolve, n * DELIVERY_TICK_MS + 50));
/** Runs the notice job's queueing, and answers how many notices were texted to this phone in all. */
async function textsAfterNotices(phone: string): Promise<number> {
  await queueVoteNotices({ db: t.deps.db, now: clock.now, publicUrl: "https://quad.example" });
  const texts = await t.deps.db
    .select()
    .from(smsOutbox)
    .where(and(eq(smsOutbox.toPhone, phone), eq(smsOutbox.kind, "notification")));
  return texts.length;
}

describe.each<Protocol>(["rest", "trpc"])("a vote and its delivery moment, over %s", (protocol) => {
  const api = () => inboxClient(t.app, protocol);

  it("exists for no one until its moment, then arrives in the inbox, the count, the stream and the notices", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const recipient = await c.student({
      gender: "female",
      inboxOpenedAt: new Date(clock.now().getTime() - 86_400_000),
    });
    await c.student({ gender: "female" });
    await recordSignupConsents(t.deps.db, recipient.phone, clock.now());
    const headers = { authorization: `Bearer ${(await sessionFor(t, recipient.phone)).token}` };
    // An older vote, delivered long ago: the page's hasMore and cursor must not count the new one.
    await receiveVotes(t, {
      recipientId: recipient.id,
      voterIds: [c.me.id],
      at: new Date(clock.now().getTime() - 7_200_000),
    });
    expect(await textsAfterNotices(recipient.phone)).toBe(1);
    const { path, headers: streamHeaders } = api().stream(headers);
    const stream = await openEventStream(`${base}${path}`, streamHeaders);
    await stream.next(isType("ready"));
    const opened = await api().received(headers);
    expect(opened.page!.votes).toHaveLength(1);

    const castAt = clock.now();
    await api().voteFor(c.headers, recipient.id);
    const [row] = await t.deps.db
      .select()
      .from(votes)
      .where(eq(votes.recipientId, recipient.id))
      .orderBy(votes.createdAt)
      .offset(1);
    expect(row!.createdAt.getTime()).toBe(castAt.getTime());
    const delay = row!.deliveredAt.getTime() - castAt.getTime();
    expect(delay).toBeGreaterThanOrEqual(0);
    expect(delay).toBeLessThan(WINDOW_MS);

    // A millisecond before its moment: nowhere.
    clock.set(new Date(row!.deliveredAt.getTime() - 1));
    await ticks(2);
    const before = await api().received(headers, { limit: 1 });
    expect(before.page!.votes.map((card) => card.id)).not.toContain(row!.id);
    expect(before.page!.hasMore).toBe(false);
    expect(before.page!.nextCursor).toBeNull();
    expect((await api().received(headers)).page!.votes).toHaveLength(1);
    // The older vote only.
    expect(await api().newVotes(headers)).toBe(1);
    expect((await api().unlock(headers, row!.id)).status).toBe(404);
    expect(JSON.stringify((await api().exportAccount(headers)).data)).not.toContain(row!.id);
    expect(await textsAfterNotices(recipient.phone)).toBe(1);
    expect(stream.events.filter(isType("vote"))).toEqual([]);

    // At its moment: the inbox and the count at once, the stream within its lag, the next notice tick.
    clock.set(row!.deliveredAt);
    const after = await api().received(headers);
    const card = after.page!.votes.find((c) => c.id === row!.id);
    expect(card).toBeDefined();
    expect(card!.createdAt).toBe(`${row!.deliveredAt.toISOString().slice(0, 13)}:00:00.000Z`);
    expect(await api().newVotes(headers)).toBe(2);
    expect(JSON.stringify((await api().exportAccount(headers)).data)).toContain(row!.id);
    // Nor does the voter's own file carry when she cast it, finer than the hour.
    const voterFile = (await api().exportAccount(c.headers)).data as { votesCast: { at: string }[] };
    expect(voterFile.votesCast.length).toBeGreaterThan(0);
    for (const cast of voterFile.votesCast) expect(cast.at).toMatch(/T\d{2}:00:00\.000Z$/);
    expect(await textsAfterNotices(recipient.phone)).toBe(2);
    clock.advance(DELIVERY_LAG_MS);
    const heard = await stream.next(isType("vote"), 2000);
    expect(ours(heard)).toEqual({ type: "vote", card });
    // Once: later ticks do not announce it again.
    clock.advance(WINDOW_MS);
    await ticks(3);
    expect(stream.events.filter(isType("vote"))).toHaveLength(1);
    await stream.close();
  });
});

describe("the delivery moment", () => {
  it("is drawn for each vote on its own, anywhere in the window after it was cast", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const [a, b] = [await c.student({ gender: "female" }), await c.student({ gender: "female" })];
    const second = await c.student({ gender: "male", preference: "female" });
    const voters = [c.headers, { authorization: `Bearer ${(await sessionFor(t, second.phone)).token}` }];
    const api = inboxClient(t.app, "rest");
    // A batch of votes from each of two voters.
    for (let i = 0; i < 24; i++) {
      await api.voteFor(voters[i % 2]!, i % 4 < 2 ? a.id : b.id);
      clock.advance(1_000);
    }
    const rows = await t.deps.db
      .select()
      .from(votes)
      .where(inArray(votes.voterId, [c.me.id, second.id]));
    const delays = rows.map((row) => row.deliveredAt.getTime() - row.createdAt.getTime());
    expect(delays).toHaveLength(24);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(0);
    for (const delay of delays) expect(delay).toBeLessThan(WINDOW_MS);
    // Uniform over a minute: 24 draws spread over most of it, not one shared delay.
    expect(new Set(delays).size).toBeGreaterThan(20);
    expect(Math.max(...delays) - Math.min(...delays)).toBeGreaterThan(WINDOW_MS / 2);
  });
});

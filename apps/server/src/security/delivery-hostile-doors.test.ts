import { LiveEvent } from "@quad/contracts";
import { insertTestPrompt } from "@quad/db/testing";
import { votes, type User } from "@quad/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { openEventStream, type SseEvent } from "../test/event-stream";
import { inboxClient, type Protocol } from "../test/inbox-client";
import { testClock } from "../test/sms";
import { campus, sessionFor } from "../test/voters";

/**
 * A hostile student who wants a vote before its delivery moment,
 * or its moment or cast time finer than the hour, tries the doors the
 * delivery tests do not: hand-made cursors, the unlock and safety doors with
 * an undelivered card's id, the order of cards within an hour, and odd
 * resume ids on the live stream. Every one holds (forged-inbox-cursors.test.ts
 * has the cursors Postgres itself would refuse).
 */
const clock = testClock("2026-03-09T19:20:00Z");
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, env: { VOTE_DELIVERY_WINDOW_S: "60" } });
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t?.close());

const headersOf = async (user: User) => ({ authorization: `Bearer ${(await sessionFor(t, user.phone)).token}` });
const cursorOf = (time: string, id: string) => Buffer.from(JSON.stringify([time, id])).toString("base64url");
const MAX_ID = "ffffffff-ffff-4fff-bfff-ffffffffffff";

/** A recipient with one vote delivered an hour ago and one cast now, delivered 30 s from now. */
async function recipientWithPending() {
  const c = await campus(t, { gender: "male", preference: "female" });
  const recipient = await c.student({
    gender: "female",
    remainingUnlocks: 3,
    inboxOpenedAt: new Date(clock.now().getTime() - 86_400_000),
  });
  const prompt = await insertTestPrompt(t.deps.db);
  const now = clock.now().getTime();
  const [old, pending] = await t.deps.db
    .insert(votes)
    .values([
      {
        voterId: c.me.id,
        recipientId: recipient.id,
        promptId: prompt.id,
        createdAt: new Date(now - 3_600_000),
        deliveredAt: new Date(now - 3_590_000),
      },
      {
        voterId: c.me.id,
        recipientId: recipient.id,
        promptId: prompt.id,
        createdAt: new Date(now),
        deliveredAt: new Date(now + 30_000),
      },
    ])
    .returning({ id: votes.id, deliveredAt: votes.deliveredAt });
  return { c, recipient, headers: await headersOf(recipient), old: old!, pending: pending! };
}

describe.each<Protocol>(["rest", "trpc"])("hostile reads of an undelivered vote over %s", (protocol) => {
  const api = () => inboxClient(t.app, protocol);

  it("a hand-made cursor from the far future or an offset page shows no undelivered vote, no hasMore, no cursor", async () => {
    const { headers, old, pending } = await recipientWithPending();
    const asks = [
      { cursor: cursorOf("9999-12-31T23:00:00Z", MAX_ID), limit: 1 },
      { cursor: cursorOf(pending.deliveredAt.toISOString(), MAX_ID), limit: 1 },
      // The pending vote's exact moment and its own id (the attacker cannot know it; a cursor could still have said).
      { cursor: cursorOf(new Date(pending.deliveredAt.getTime() + 3_600_000).toISOString(), pending.id), limit: 1 },
      { page: 1, limit: 1 },
      { page: 2, limit: 1 },
    ];
    for (const ask of asks) {
      const res = await api().received(headers, ask);
      expect(res.status, res.body).toBe(200);
      expect(res.body).not.toContain(pending.id);
      expect(res.page!.hasMore).toBe(false);
      expect(res.page!.nextCursor).toBeNull();
      expect(res.page!.votes.map((card) => card.id)).toEqual("page" in ask && ask.page === 2 ? [] : [old.id]);
    }
    expect(await api().newVotes(headers)).toBe(1);
  });

  it("unlocking an undelivered card answers exactly as a random id and a classmate's card do, and spends nothing", async () => {
    const mine = await recipientWithPending();
    const theirs = await recipientWithPending();
    const answers = [];
    for (const id of [mine.pending.id, "6f1c2b7e-3d4a-4b5c-8d9e-0a1b2c3d4e5f", theirs.old.id, theirs.pending.id]) {
      const res = await api().unlock(mine.headers, id);
      answers.push({ status: res.status, body: res.body });
    }
    expect(answers[0]!.status).toBe(404);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const page = await api().received(mine.headers);
    expect(page.page!.votes.every((card) => !card.isUnlocked)).toBe(true);
  });

  it("within an hour, cards come in the order of their random ids, whatever the order they were cast or delivered", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const recipient = await c.student({ gender: "female" });
    const prompt = await insertTestPrompt(t.deps.db);
    // Cast a minute apart, delivered in the same order, all within 18:00–19:00 UTC.
    const hour = Date.parse("2026-03-09T18:00:00Z");
    const rows = await t.deps.db
      .insert(votes)
      .values(
        Array.from({ length: 8 }, (_, i) => ({
          voterId: c.me.id,
          recipientId: recipient.id,
          promptId: prompt.id,
          createdAt: new Date(hour + i * 60_000),
          deliveredAt: new Date(hour + i * 60_000 + 30_000),
        })),
      )
      .returning({ id: votes.id });
    const headers = await headersOf(recipient);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await api().received(headers, { limit: 3, ...(cursor ? { cursor } : {}) });
      for (const card of res.page!.votes) {
        expect(card.createdAt).toBe("2026-03-09T18:00:00.000Z");
        seen.push(card.id);
      }
      cursor = res.page!.nextCursor ?? undefined;
      if (cursor) {
        const [hourOfCursor, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [string, string];
        expect(hourOfCursor).toBe("2026-03-09T18:00:00.000Z");
        expect(seen).toContain(id);
      }
    } while (cursor);
    expect(seen).toEqual(
      rows
        .map((row) => row.id)
        .sort()
        .reverse(),
    );
  });
});

const ours = (event: SseEvent): LiveEvent | undefined => {
  try {
    const parsed = LiveEvent.safeParse(JSON.parse(event.data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

describe.each<Protocol>(["rest", "trpc"])("odd resume ids on the live stream over %s", (protocol) => {
  it("a tampered, truncated, padded or borrowed id starts afresh (no replay, no 500); one past 200 characters is a 400, never a 5xx", async () => {
    const { headers } = await recipientWithPending();
    const other = await recipientWithPending();
    const api = inboxClient(t.app, protocol);
    const first = await openEventStream(`${base}${api.stream(headers).path}`, api.stream(headers).headers);
    const realId = (await first.next((e) => ours(e)?.type === "ready")).id!;
    await first.close();
    const otherStream = await openEventStream(
      `${base}${api.stream(other.headers).path}`,
      api.stream(other.headers).headers,
    );
    const borrowed = (await otherStream.next((e) => ours(e)?.type === "ready")).id!;
    await otherStream.close();
    const flip = (id: string) => {
      const raw = Buffer.from(id, "base64url");
      raw[14]! ^= 1;
      return raw.toString("base64url");
    };
    // The old vote was delivered before both ids; the pending one is not due: neither may come back.
    clock.advance(10_000);
    for (const id of [flip(realId), realId.slice(0, -4), `${realId}AAAA`, borrowed, "%00", "=".repeat(200)]) {
      const { path, headers: h } = api.stream(headers, id);
      const s = await openEventStream(`${base}${path}`, h);
      expect(s.res.status, id).toBe(200);
      await s.next((e) => ours(e)?.type === "ready");
      expect(s.events.filter((e) => ours(e)?.type === "vote")).toEqual([]);
      await s.close();
    }
    const { path, headers: h } = api.stream(headers, "a".repeat(201));
    const tooLong = await openEventStream(`${base}${path}`, h);
    // REST refuses it before the stream; tRPC's SSE link answers 200 and sends the 400 as its error event.
    if (protocol === "rest") expect(tooLong.res.status).toBe(400);
    else {
      expect(tooLong.res.status).toBe(200);
      const error = await tooLong.next((e) => e.event === "serialized-error" || e.data.includes("BAD_REQUEST"));
      expect(error.data).toContain("BAD_REQUEST");
    }
    expect(tooLong.events.filter((e) => ours(e)?.type === "vote")).toEqual([]);
    await tooLong.close();
  });
});

describe("the REST stream's resume id from odd places", () => {
  it("two ?lastEventId= values, an empty header beside a query id, or an 8 kB header answer 4xx or start afresh, never 5xx", async () => {
    const { headers } = await recipientWithPending();
    const tries: [string, Record<string, string>][] = [
      ["/api/live/events?lastEventId=a&lastEventId=b", headers],
      ["/api/live/events?lastEventId=x", { ...headers, "last-event-id": "" }],
      ["/api/live/events", { ...headers, "last-event-id": "x".repeat(8000) }],
      ["/api/live/events?lastEventId[a]=1", headers],
    ];
    for (const [path, h] of tries) {
      const s = await openEventStream(`${base}${path}`, h);
      expect(s.res.status, path).toBeLessThan(500);
      if (s.res.status === 200) {
        await s.next((e) => ours(e)?.type === "ready");
        expect(s.events.filter((e) => ours(e)?.type === "vote")).toEqual([]);
      } else expect(s.res.status, path).toBe(400);
      await s.close();
    }
  });
});

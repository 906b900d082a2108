import { InboxPage, LiveEvent, Round } from "@quad/contracts";
import type { User } from "@quad/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, createTestAppOn, type TestApp } from "../../test/app";
import { openEventStream, type EventStream, type SseEvent } from "../../test/event-stream";
import { inboxClient } from "../../test/inbox-client";
import { urlOfTestDatabase } from "../../test/postgres";
import { campus, sessionFor } from "../../test/voters";
import { createPostgresLiveBus } from "./bus";
import { RESUME_MAX_AGE_MS } from "./event-ids";
import { DELIVERY_LAG_MS, DELIVERY_TICK_MS } from "./hub";

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t?.close());

type Protocol = "rest" | "trpc";
type Headers = Record<string, string>;

/** The stream over either protocol: REST's text/event-stream, or tRPC's subscription over SSE as httpSubscriptionLink opens it. */
function stream(protocol: Protocol, headers: Headers, lastEventId?: string, at = base): Promise<EventStream> {
  if (protocol === "rest") {
    return openEventStream(
      `${at}/api/live/events`,
      lastEventId ? { ...headers, "last-event-id": lastEventId } : headers,
    );
  }
  const input = lastEventId ? `?input=${encodeURIComponent(JSON.stringify({ lastEventId }))}` : "";
  return openEventStream(`${at}/api/trpc/live.events${input}`, headers);
}

/** An event of ours (not tRPC's own connected, ping or return events), parsed with the contracts schema. */
const ours = (event: SseEvent): LiveEvent | undefined => {
  if (event.event && !["vote", "state", "ready"].includes(event.event)) return undefined;
  const parsed = LiveEvent.safeParse(JSON.parse(event.data));
  return parsed.success ? parsed.data : undefined;
};
const isType = (type: LiveEvent["type"]) => (event: SseEvent) => ours(event)?.type === type;

const headersOf = async (user: User): Promise<Headers> => ({
  authorization: `Bearer ${(await sessionFor(t, user.phone)).token}`,
});

async function voteFor(voterHeaders: Headers, through = t): Promise<string> {
  const round = await through.app.inject({ method: "GET", url: "/api/prompts/random", headers: voterHeaders });
  const r = Round.parse(round.json());
  const res = await through.app.inject({
    method: "POST",
    url: "/api/votes/store",
    headers: voterHeaders,
    payload: { userId: r.users[0].id, promptId: r.prompt.id },
  });
  expect(res.statusCode).toBe(200);
  return r.users[0].id;
}

async function firstCard(headers: Headers) {
  const res = await t.app.inject({ method: "GET", url: "/api/votes/for-user", headers });
  return InboxPage.parse(res.json()).votes[0];
}

describe.each<Protocol>(["rest", "trpc"])("live events over %s", (protocol) => {
  it("a vote reaches the recipient's open stream within 2 s, as the inbox's card and nothing more", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const a = await c.student({ gender: "female", firstName: "Ariadne", instagramHandle: "@ari.secret" });
    const b = await c.student({ gender: "female", firstName: "Beatrix", instagramHandle: "@bea.secret" });
    const heads = new Map([
      [a.id, await headersOf(a)],
      [b.id, await headersOf(b)],
    ]);
    const streams = new Map<string, EventStream>();
    for (const [id, h] of heads) streams.set(id, await stream(protocol, h));
    const voterStream = await stream(protocol, c.headers);
    for (const s of [...streams.values(), voterStream]) await s.next(isType("ready"));

    const started = Date.now();
    const recipientId = await voteFor(c.headers);
    const got = await streams.get(recipientId)!.next(isType("vote"), 2000);
    expect(Date.now() - started).toBeLessThan(2000);

    const event = ours(got)!;
    expect(event.type).toBe("vote");
    const card = await firstCard(heads.get(recipientId)!);
    expect(event).toEqual({ type: "vote", card });
    expect(Object.keys(JSON.parse(got.data) as object).sort()).toEqual(["card", "type"]);
    expect(Object.keys(card!).sort()).toEqual(["createdAt", "id", "isUnlocked", "photo", "prompt"]);
    expect(card!.createdAt).toMatch(/T\d{2}:00:00\.000Z$/);
    for (const secret of [c.me.id, c.me.phone, "Voter", "voterId"]) expect(got.data).not.toContain(secret);
    // The event id is sealed: no time or id in the clear.
    expect(got.id).toBeDefined();
    expect(got.id).not.toContain(card!.id);
    expect(got.id).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    // The voter's other tabs hear that their votes left changed; the other candidate hears nothing.
    await voterStream.next(isType("state"), 2000);
    const other = streams.get(recipientId === a.id ? b.id : a.id)!;
    expect(other.events.filter(isType("vote"))).toEqual([]);
    for (const s of [...streams.values(), voterStream]) await s.close();
  });

  it("a signed-out session's stream ends within a second", async () => {
    const c = await campus(t);
    const tokens = await sessionFor(t, c.me.phone);
    const s = await stream(protocol, { authorization: `Bearer ${tokens.token}` });
    await s.next(isType("ready"));
    const logout = await t.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      payload: { refreshToken: tokens.refreshToken },
    });
    expect(logout.statusCode).toBe(200);
    expect(await s.endedWithin(1000)).toBe(true);
    await s.close();
  });

  it("resumes after the last event id, on another process after a restart too, losing no vote", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const a = await c.student({ gender: "female" });
    const b = await c.student({ gender: "female" });
    const heads = new Map([
      [a.id, await headersOf(a)],
      [b.id, await headersOf(b)],
    ]);
    const lastIds = new Map<string, string>();
    for (const [id, h] of heads) {
      const s = await stream(protocol, h);
      lastIds.set(id, (await s.next(isType("ready"))).id!);
      await s.close();
    }
    // Voted while no stream was open.
    const recipientId = await voteFor(c.headers);
    const card = await firstCard(heads.get(recipientId)!);
    const restarted = await createTestAppOn(t.deps.db, t.deps.dbKind);
    try {
      const at = await restarted.app.listen({ port: 0, host: "127.0.0.1" });
      const s = await stream(protocol, heads.get(recipientId)!, lastIds.get(recipientId), at);
      const resent = await s.next(isType("vote"));
      expect(ours(resent)).toEqual({ type: "vote", card });
      // Then ready, with the id the next resume starts from; the vote is not announced again after it.
      await s.next(isType("ready"));
      await new Promise((resolve) => setTimeout(resolve, 4 * DELIVERY_TICK_MS + DELIVERY_LAG_MS));
      expect(s.events.filter(isType("vote"))).toHaveLength(1);
      await s.close();
      // A resume from an id the server did not issue starts afresh, without an error.
      const forged = await stream(protocol, heads.get(recipientId)!, "not-an-id", at);
      expect(forged.res.status).toBe(200);
      await forged.next(isType("ready"));
      expect(forged.events.filter(isType("vote"))).toEqual([]);
      await forged.close();
    } finally {
      await restarted.close();
    }
  });

  it("replays nothing from another student's id, and only the owner's votes from her own, in the inbox's order", async () => {
    const c = await campus(t, { gender: "male", preference: "female" });
    const a = await c.student({ gender: "female" });
    const b = await c.student({ gender: "female" });
    const more = [
      await c.student({ gender: "male", preference: "female" }),
      await c.student({ gender: "male", preference: "female" }),
    ];
    const [aHeaders, bHeaders] = [await headersOf(a), await headersOf(b)];
    const idOf = async (h: Headers) => {
      const s = await stream(protocol, h);
      const id = (await s.next(isType("ready"))).id!;
      await s.close();
      return id;
    };
    const [aId, bId] = [await idOf(aHeaders), await idOf(bHeaders)];
    // Both receive votes while neither stream is open: three voters, each for both.
    for (const voter of [c.me, ...more]) {
      const h = voter === c.me ? c.headers : await headersOf(voter);
      await inboxClient(t.app, "rest").voteFor(h, a.id);
      await inboxClient(t.app, "rest").voteFor(h, b.id);
    }
    await new Promise((resolve) => setTimeout(resolve, DELIVERY_LAG_MS + 2 * DELIVERY_TICK_MS));

    // B resuming from A's id: nothing of A's, nothing of her own.
    const borrowed = await stream(protocol, bHeaders, aId);
    await borrowed.next(isType("ready"));
    expect(borrowed.events.filter(isType("vote"))).toEqual([]);
    await borrowed.close();

    // B from her own id: her missed cards, in the order her inbox lists them.
    const own = await stream(protocol, bHeaders, bId);
    await own.next(isType("ready"));
    const replayed = own.events.filter(isType("vote")).map((e) => (ours(e) as { card: { id: string } }).card.id);
    const inbox = InboxPage.parse(
      (await t.app.inject({ method: "GET", url: "/api/votes/for-user?limit=50", headers: bHeaders })).json(),
    ).votes.map((card) => card.id);
    expect(replayed.length).toBeGreaterThan(0);
    expect(replayed).toEqual(inbox.slice(0, replayed.length));
    await own.close();
  });

  it("replays nothing from an id older than a reconnect needs", async () => {
    let offset = 0;
    const later = await createTestAppOn(t.deps.db, t.deps.dbKind, { now: () => new Date(Date.now() + offset) });
    try {
      const at = await later.app.listen({ port: 0, host: "127.0.0.1" });
      const c = await campus(t, { gender: "male", preference: "female" });
      const a = await c.student({ gender: "female" });
      await c.student({ gender: "female" });
      const h = await headersOf(a);
      const first = await stream(protocol, h, undefined, at);
      const id = (await first.next(isType("ready"))).id!;
      await first.close();
      await inboxClient(t.app, "rest").voteFor(c.headers, a.id);
      offset = RESUME_MAX_AGE_MS + 1_000;
      // Signed in again: the first token expired meanwhile on this clock.
      const fresh = { authorization: `Bearer ${(await sessionFor(later, a.phone)).token}` };
      const resumed = await stream(protocol, fresh, id, at);
      await resumed.next(isType("ready"));
      expect(resumed.events.filter(isType("vote"))).toEqual([]);
      await resumed.close();
    } finally {
      await later.close();
    }
  });
});

describe("the REST stream", () => {
  it("is refused without a session, as JSON", async () => {
    const s = await openEventStream(`${base}/api/live/events`);
    expect(s.res.status).toBe(401);
    expect(s.res.headers.get("content-type")).toMatch(/^application\/json/);
    await s.close();
  });

  it("is text/event-stream that proxies pass on unbuffered", async () => {
    const c = await campus(t);
    const s = await openEventStream(`${base}/api/live/events`, c.headers);
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(s.res.headers.get("x-accel-buffering")).toBe("no");
    await s.close();
  });
});

describe("limits", () => {
  let small: TestApp;
  let at: string;
  beforeAll(async () => {
    small = await createTestAppOn(t.deps.db, t.deps.dbKind, {
      liveLimits: { perStudent: 2, perProcess: 3, idleMs: 60_000 },
    });
    at = await small.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => small?.close());

  it("caps streams per student (429) and per process (503), and frees a slot when a stream closes", async () => {
    const c = await campus(t);
    const other = await c.student();
    const otherHeaders = await headersOf(other);
    const first = await stream("rest", c.headers, undefined, at);
    const second = await stream("trpc", c.headers, undefined, at);
    for (const s of [first, second]) await s.next(isType("ready"));

    const third = await stream("rest", c.headers, undefined, at);
    expect(third.res.status).toBe(429);
    expect(((await third.res.json()) as { message: string }).message).toMatch(/Too many live connections/);
    const thirdTrpc = await stream("trpc", c.headers, undefined, at);
    const refused = await thirdTrpc.next((e) => e.event === "serialized-error");
    expect(JSON.parse(refused.data)).toMatchObject({ data: { code: "TOO_MANY_REQUESTS", httpStatus: 429 } });

    const otherFirst = await stream("rest", otherHeaders, undefined, at);
    await otherFirst.next(isType("ready"));
    const full = await stream("rest", otherHeaders, undefined, at);
    expect(full.res.status).toBe(503);
    expect(full.res.headers.get("retry-after")).toBe("30");

    await first.close();
    await new Promise((r) => setTimeout(r, 200));
    const again = await stream("rest", otherHeaders, undefined, at);
    await again.next(isType("ready"));
    for (const s of [second, third, thirdTrpc, otherFirst, full, again]) await s.close();
  });

  it("ends a stream idle past the idle timeout, heartbeats not counting as events", async () => {
    const idle = await createTestAppOn(t.deps.db, t.deps.dbKind, { liveLimits: { idleMs: 600, heartbeatMs: 100 } });
    try {
      const url = await idle.app.listen({ port: 0, host: "127.0.0.1" });
      const c = await campus(t);
      const s = await stream("rest", c.headers, undefined, url);
      await s.next(isType("ready"));
      expect(await s.endedWithin(2000)).toBe(true);
      // A quiet stream carries a comment line on every beat, which proxies and clients see as traffic.
      expect(s.comments()).toBeGreaterThanOrEqual(3);
      await s.close();
    } finally {
      await idle.close();
    }
  });
});

const serverUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();

describe.skipIf(!serverUrl)(
  serverUrl ? "across processes" : "across processes (skipped: needs DATABASE_URL for LISTEN/NOTIFY)",
  () => {
    it("a vote taken by one process reaches the recipient's streams on every process, once each", async () => {
      const url = await urlOfTestDatabase(t.deps.db, serverUrl!);
      const a = await createTestAppOn(t.deps.db, "postgres", { liveBus: await createPostgresLiveBus(url) });
      const b = await createTestAppOn(t.deps.db, "postgres", { liveBus: await createPostgresLiveBus(url) });
      try {
        const [atA, atB] = [
          await a.app.listen({ port: 0, host: "127.0.0.1" }),
          await b.app.listen({ port: 0, host: "127.0.0.1" }),
        ];
        const c = await campus(t, { gender: "male", preference: "female" });
        const recipient = await c.student({ gender: "female" });
        await c.student({ gender: "female" });
        const h = await headersOf(recipient);
        const streams = [await stream("rest", h, undefined, atA), await stream("trpc", h, undefined, atB)];
        for (const s of streams) await s.next(isType("ready"));
        await inboxClient(a.app, "rest").voteFor(c.headers, recipient.id);
        const card = await firstCard(h);
        for (const s of streams) expect(ours(await s.next(isType("vote"), 3000))).toEqual({ type: "vote", card });
        await new Promise((resolve) => setTimeout(resolve, 4 * DELIVERY_TICK_MS + DELIVERY_LAG_MS));
        for (const s of streams) expect(s.events.filter(isType("vote"))).toHaveLength(1);
        for (const s of streams) await s.close();
      } finally {
        await a.close();
        await b.close();
      }
    });
  },
);

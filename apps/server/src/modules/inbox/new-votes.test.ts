import { INBOX_NEW_VOTES_MAX, InboxPage } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { campus, sessionFor } from "../../test/voters";
import { receiveVotes } from "../../test/votes";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const protocols = {
  REST: {
    count: (headers: Headers) => t.app.inject({ method: "GET", url: "/api/votes/new-count", headers }),
    open: (headers: Headers) => t.app.inject({ method: "POST", url: "/api/votes/opened", headers, payload: {} }),
    data: (body: unknown) => body as { count: number },
  },
  tRPC: {
    count: (headers: Headers) => t.app.inject({ method: "GET", url: "/api/trpc/inbox.newVotes", headers }),
    open: (headers: Headers) =>
      t.app.inject({ method: "POST", url: "/api/trpc/inbox.markOpened", headers, payload: {} }),
    data: (body: unknown) => (body as { result: { data: { count: number } } }).result.data,
  },
};

const HOUR = 3_600_000;
const later = (ms: number) => new Date(Date.now() + ms);
/** A moment after the inbox was just opened, already past: votes delivered then count as new. */
const justAfterOpening = async () => {
  await new Promise((resolve) => setTimeout(resolve, 5));
  return new Date(Date.now() - 2);
};
const listIds = async (headers: Headers) =>
  InboxPage.parse(
    (await t.app.inject({ method: "GET", url: "/api/votes/for-user?limit=50", headers })).json(),
  ).votes.map((v) => v.id);

describe.each(Object.entries(protocols))("new votes over %s", (_name, p) => {
  const count = async (headers: Headers) => {
    const res = await p.count(headers);
    expect(res.statusCode).toBe(200);
    return p.data(res.json()).count;
  };

  it("counts the votes since the inbox was last opened, from zero again after opening it", async () => {
    const c = await campus(t, { inboxOpenedAt: later(-2 * HOUR) });
    const voters = await Promise.all(Array.from({ length: 5 }, () => c.student()));
    await receiveVotes(t, { recipientId: c.me.id, voterIds: [voters[0]!.id], at: later(-3 * HOUR) });
    expect(await count(c.headers)).toBe(0);

    await receiveVotes(t, { recipientId: c.me.id, voterIds: voters.slice(1, 3).map((v) => v.id), at: later(-HOUR) });
    expect(await count(c.headers)).toBe(2);

    const opened = await p.open(c.headers);
    expect(opened.statusCode).toBe(200);
    expect(p.data(opened.json())).toEqual({ count: 0 });
    expect(await count(c.headers)).toBe(0);

    const at = await justAfterOpening();
    await receiveVotes(t, { recipientId: c.me.id, voterIds: voters.slice(3).map((v) => v.id), at, spacingMs: 1 });
    expect(await count(c.headers)).toBe(2);
  });

  it("keeps the mark on the server: opening on one device clears the count on another", async () => {
    const c = await campus(t, { inboxOpenedAt: later(-2 * HOUR) });
    const voter = await c.student();
    await receiveVotes(t, { recipientId: c.me.id, voterIds: [voter.id], at: later(-HOUR) });
    const otherDevice = { authorization: `Bearer ${(await sessionFor(t, c.me.phone)).token}` };
    expect(await count(otherDevice)).toBe(1);
    expect((await p.open(c.headers)).statusCode).toBe(200);
    expect(await count(otherDevice)).toBe(0);
  });

  it("says a number and nothing else, equal to the cards the list gained since it was opened", async () => {
    const c = await campus(t);
    const voters = await Promise.all(Array.from({ length: 4 }, () => c.student({ firstName: "Quentin" })));
    await receiveVotes(t, { recipientId: c.me.id, voterIds: [voters[0]!.id], at: later(-1_000) });
    await p.open(c.headers);
    const seen = await listIds(c.headers);
    const at = await justAfterOpening();
    await receiveVotes(t, { recipientId: c.me.id, voterIds: voters.slice(1).map((v) => v.id), at, spacingMs: 1 });
    const now = await listIds(c.headers);

    const res = await p.count(c.headers);
    expect(p.data(res.json())).toEqual({ count: 3 });
    expect(Object.keys(p.data(res.json()))).toEqual(["count"]);
    expect(now.filter((id) => !seen.includes(id))).toHaveLength(3);
    for (const secret of ["Quentin", ...voters.map((v) => v.id), ...now]) expect(res.body).not.toContain(secret);
  });

  it(`counts up to ${INBOX_NEW_VOTES_MAX}`, async () => {
    const c = await campus(t, { inboxOpenedAt: later(-HOUR) });
    const voters = await Promise.all(Array.from({ length: INBOX_NEW_VOTES_MAX + 3 }, () => c.student()));
    await receiveVotes(t, {
      recipientId: c.me.id,
      voterIds: voters.map((v) => v.id),
      at: later(-60_000),
      spacingMs: 10,
    });
    expect(await count(c.headers)).toBe(INBOX_NEW_VOTES_MAX);
  });

  it("answers a student who has not proved a school address as the inbox does (403), and no session with 401", async () => {
    const c = await campus(t, { member: false });
    expect((await p.count(c.headers)).statusCode).toBe(403);
    expect((await p.open(c.headers)).statusCode).toBe(403);
    expect((await p.count({})).statusCode).toBe(401);
    expect((await p.open({})).statusCode).toBe(401);
  });
});

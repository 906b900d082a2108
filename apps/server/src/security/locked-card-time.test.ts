import { users, votes } from "@quad/db/schema";
import { insertTestPrompt } from "@quad/db/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { campus, sessionFor } from "../test/voters";

/**
 * The attack: one friend unlocks her card and learns its exact time; another
 * friend who got a vote from the same voter seconds apart picks out her own
 * locked card by the nearest time, or by its place among her other cards of
 * that hour (an order by exact time puts it between neighbours whose times
 * she may know), or from the paging cursor. Every view is read as sent, over
 * REST and tRPC: the inbox by page and by cursor, and the export.
 */

const HOUR = 3_600_000;
/** Any ISO time finer than its hour: minutes, seconds or fractions not zero. */
const FINER_THAN_AN_HOUR = /\d{4}-\d{2}-\d{2}[T ]\d{2}:(?!00:00(\.0+)?(Z|\+00(:00)?)\b)\d{2}:\d{2}/;

let t: TestApp;
let robin: Awaited<ReturnType<typeof campus>>;
let rowan: { id: string; headers: Record<string, string> };
/** Vesper's vote for Robin, cast 23 minutes into the hour, and hers for Rowan four seconds later. */
let forRobin: { id: string; createdAt: Date };
let forRowan: string;
/** Rowan's votes of that hour by exact time, oldest first, with ids whose order runs the other way. */
let rowansHour: string[];

beforeAll(async () => {
  t = await createTestApp();
  robin = await campus(t, { firstName: "Robin" });
  const rowanRow = await robin.student({ firstName: "Rowan" });
  rowan = { id: rowanRow.id, headers: { authorization: `Bearer ${(await sessionFor(t, rowanRow.phone)).token}` } };
  const [vesper, wren, uma] = await Promise.all(
    ["Vesper", "Wren", "Uma"].map((firstName) => robin.student({ firstName })),
  );
  const prompt = await insertTestPrompt(t.deps.db);
  const hour = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
  const at = (minutes: number, ms = 0) => new Date(hour + minutes * 60_000 + ms);
  // Ids chosen so that an order by id within the hour is the reverse of the order by time.
  const rows = [
    { id: "ffffffff-0000-4000-8000-000000000001", voterId: uma!.id, recipientId: rowan.id, createdAt: at(10) },
    {
      id: "cccccccc-0000-4000-8000-000000000002",
      voterId: vesper!.id,
      recipientId: rowan.id,
      createdAt: at(23, 4_123),
    },
    { id: "aaaaaaaa-0000-4000-8000-000000000003", voterId: wren!.id, recipientId: rowan.id, createdAt: at(40) },
    {
      id: "dddddddd-0000-4000-8000-000000000004",
      voterId: vesper!.id,
      recipientId: robin.me.id,
      createdAt: at(23, 123),
    },
    // An older vote for Rowan, an hour before, so the inbox pages across hours.
    { id: "00000000-0000-4000-8000-000000000005", voterId: wren!.id, recipientId: rowan.id, createdAt: at(-30) },
  ];
  await t.deps.db
    .insert(votes)
    .values(rows.map((row) => ({ ...row, deliveredAt: row.createdAt, promptId: prompt.id })));
  forRobin = { id: rows[3]!.id, createdAt: rows[3]!.createdAt };
  forRowan = rows[1]!.id;
  rowansHour = rows.slice(0, 3).map((row) => row.id);
  await t.deps.db.update(users).set({ remainingUnlocks: 1 }).where(eq(users.id, robin.me.id));
}, 60_000);
afterAll(() => t?.close());

const get = async (url: string, headers: Record<string, string>) => {
  const res = await t.app.inject({ method: "GET", url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res;
};
const trpc = (procedure: string, input?: unknown) =>
  `/api/trpc/${procedure}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;

type Card = { id: string; isUnlocked: boolean; createdAt: string };
type Page = { votes: Card[]; nextCursor: string | null };

/** Rowan's inbox by cursor, one card a page, every page's body, headers and cursor kept as sent. */
async function walkByCursor(protocol: "REST" | "tRPC") {
  const sent: string[] = [];
  const cards: Card[] = [];
  let cursor: string | null = null;
  do {
    const input: { limit: number; cursor?: string } = { limit: 1, ...(cursor ? { cursor } : {}) };
    const res =
      protocol === "REST"
        ? await get(`/api/votes/for-user?limit=1${cursor ? `&cursor=${cursor}` : ""}`, rowan.headers)
        : await get(trpc("inbox.received", input), rowan.headers);
    const page = (protocol === "REST" ? res.json() : res.json().result.data) as Page;
    const { date: _date, ...headers } = res.headers;
    sent.push(res.body, JSON.stringify(headers));
    if (page.nextCursor) sent.push(Buffer.from(page.nextCursor, "base64url").toString("utf8"));
    cards.push(...page.votes);
    cursor = page.nextCursor;
  } while (cursor);
  return { sent, cards };
}

/** Every view of Rowan's received votes: the inbox walked by cursor and by page, and the export, over both protocols. */
async function rowansViews() {
  const views: { via: string; sent: string[]; cards: Card[] }[] = [];
  for (const protocol of ["REST", "tRPC"] as const)
    views.push({ via: `${protocol} by cursor`, ...(await walkByCursor(protocol)) });
  const restPage = await get("/api/votes/for-user?limit=50", rowan.headers);
  views.push({ via: "REST page", sent: [restPage.body], cards: (restPage.json() as Page).votes });
  const trpcPage = await get(trpc("inbox.received", { limit: 50 }), rowan.headers);
  views.push({ via: "tRPC page", sent: [trpcPage.body], cards: (trpcPage.json().result.data as Page).votes });
  // The export's other sections carry the student's own times (sign-ins, texts); its received votes are checked whole.
  const restExport = (await get("/api/users/export", rowan.headers)).json().votesReceived as Card[];
  views.push({ via: "REST export", sent: [JSON.stringify(restExport)], cards: restExport });
  const trpcExport = (await get(trpc("account.export"), rowan.headers)).json().result.data.votesReceived as Card[];
  views.push({ via: "tRPC export", sent: [JSON.stringify(trpcExport)], cards: trpcExport });
  return views;
}

describe("a locked card's time", () => {
  it("the unlocked card gives its recipient the hour too, never the exact time the attack would start from", async () => {
    for (const [via, res] of [
      [
        "REST",
        await t.app.inject({
          method: "POST",
          url: "/api/unlocks/unlock-user",
          headers: robin.headers,
          payload: { userId: forRobin.id },
        }),
      ],
      [
        "tRPC",
        await t.app.inject({
          method: "POST",
          url: "/api/trpc/inbox.unlock",
          headers: robin.headers,
          payload: { userId: forRobin.id },
        }),
      ],
    ] as const) {
      expect(res.statusCode, `${via}: ${res.body}`).toBe(200);
      const unlocked = via === "REST" ? res.json().unlockedUser : res.json().result.data.unlockedUser;
      expect(unlocked.createdAt, via).toBe(`${forRobin.createdAt.toISOString().slice(0, 13)}:00:00.000Z`);
    }
  });

  it("does not single out the same voter's card in a friend's inbox by the nearest time", async () => {
    for (const { via, cards } of await rowansViews()) {
      expect(cards.length, via).toBe(4);
      const distance = (card: Card) => Math.abs(Date.parse(card.createdAt) - forRobin.createdAt.getTime());
      const nearest = Math.min(...cards.map(distance));
      const tied = cards.filter((card) => distance(card) === nearest).map((card) => card.id);
      expect(tied, `${via}: the nearest time names one card`).toContain(forRowan);
      expect(tied.length, `${via}: the nearest time names one card`).toBe(3);
    }
  });

  it("is only the hour, in every field, header and cursor of the inbox and the export", async () => {
    for (const { via, sent, cards } of await rowansViews()) {
      for (const card of cards) {
        expect(card.isUnlocked, via).toBe(false);
        expect(card.createdAt, via).toMatch(/T\d{2}:00:00\.000Z$/);
      }
      for (const text of sent) expect(text, via).not.toMatch(FINER_THAN_AN_HOUR);
    }
  });

  it("orders an hour's cards by something other than their time", async () => {
    for (const { via, cards } of await rowansViews()) {
      const ofTheHour = cards.filter((card) => rowansHour.includes(card.id)).map((card) => card.id);
      // Newest first by exact time would be the reverse of rowansHour; by id it is rowansHour itself.
      expect(ofTheHour, via).toEqual(rowansHour);
    }
  });
});

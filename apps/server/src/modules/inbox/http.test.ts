import { LOCKED_CARD_PHOTO, InboxPage } from "@quad/contracts";
import { users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { campus } from "../../test/voters";
import { receiveVotes } from "../../test/votes";
import { hourOf } from "./cards";
import { UNLOCK_MESSAGES } from "./unlock";

const HOUR = 3_600_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const forUser = (headers: Record<string, string>, query = "") =>
  t.app.inject({ method: "GET", url: `/api/votes/for-user${query}`, headers });
const unlock = (headers: Record<string, string>, cardId: string) =>
  t.app.inject({ method: "POST", url: "/api/unlocks/unlock-user", headers, payload: { userId: cardId } });
const setCredits = (userId: string, credits: number) =>
  t.deps.db.update(users).set({ remainingUnlocks: credits }).where(eq(users.id, userId));

describe("GET /api/votes/for-user", () => {
  it("carries nothing that identifies the voter on a locked card", async () => {
    const c = await campus(t, { gender: "female" });
    const voter = await c.student({
      firstName: "Zebulon",
      instagramHandle: "@zeb.secret_handle",
      photoKey: "photos/zeb-real-photo.jpg",
      graduationYear: 2028,
      emojis: ["🦓"],
    });
    await receiveVotes(t, { recipientId: c.me.id, voterIds: [voter.id], at: new Date() });
    const res = await forUser(c.headers);
    expect(res.statusCode).toBe(200);
    const page = InboxPage.parse(res.json());
    expect(page.votes[0]).toMatchObject({ isUnlocked: false, photo: LOCKED_CARD_PHOTO });
    for (const secret of [
      "Zebulon",
      "zeb.secret_handle",
      voter.id,
      voter.phone,
      voter.phone.slice(2),
      "zeb-real-photo",
      "2028",
      "🦓",
      "voterId",
    ]) {
      expect(res.body, secret).not.toContain(secret);
    }
    expect(Object.keys(res.json().votes[0]).sort()).toEqual(["createdAt", "id", "isUnlocked", "photo", "prompt"]);
  });

  it("serves the locked cards' one picture as an SVG any cache may keep for good", async () => {
    const res = await t.app.inject({ method: "GET", url: LOCKED_CARD_PHOTO });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.body).toMatch(/^<svg [^>]*>.*<\/svg>$/);
  });

  it("pages newest hour first, by vote id within an hour, 10 by default, by page and by cursor", async () => {
    const c = await campus(t);
    const voters = await Promise.all(Array.from({ length: 25 }, () => c.student()));
    // Three or four votes an hour, over the last seven hours.
    const { votes } = await receiveVotes(t, {
      recipientId: c.me.id,
      voterIds: voters.map((v) => v.id),
      at: new Date(Math.floor(Date.now() / HOUR) * HOUR - 7 * HOUR),
      spacingMs: 17 * 60_000,
    });
    const hour = (vote: { createdAt: Date }) => Math.floor(vote.createdAt.getTime() / HOUR);
    const newestFirst = [...votes].sort((a, b) => hour(b) - hour(a) || (a.id < b.id ? 1 : -1)).map((v) => v.id);

    const p1 = InboxPage.parse((await forUser(c.headers)).json());
    expect(p1.votes.map((v) => v.id)).toEqual(newestFirst.slice(0, 10));
    expect(p1.hasMore).toBe(true);
    const p3 = InboxPage.parse((await forUser(c.headers, "?page=3&limit=10")).json());
    expect(p3.votes.map((v) => v.id)).toEqual(newestFirst.slice(20));
    expect(p3.hasMore).toBe(false);
    expect(p3.nextCursor).toBeNull();

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: InboxPage = InboxPage.parse(
        (await forUser(c.headers, `?limit=7${cursor ? `&cursor=${cursor}` : ""}`)).json(),
      );
      seen.push(...page.votes.map((v) => v.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
  });

  it("refuses bad paging input with 400", async () => {
    const c = await campus(t);
    for (const query of ["?limit=51", "?limit=0", "?page=0", "?page=abc", "?cursor=garbage"]) {
      expect((await forUser(c.headers, query)).statusCode, query).toBe(400);
    }
    expect((await t.app.inject({ method: "GET", url: "/api/votes/for-user" })).statusCode).toBe(401);
  });

  it("shows only the caller's own votes", async () => {
    const a = await campus(t);
    const b = await campus(t);
    const voter = await a.student();
    await receiveVotes(t, { recipientId: a.me.id, voterIds: [voter.id], at: new Date() });
    expect(InboxPage.parse((await forUser(b.headers)).json()).votes).toHaveLength(0);
  });
});

describe("POST /api/unlocks/unlock-user", () => {
  it("spends one credit and reveals the voter on every vote they cast for this student", async () => {
    const c = await campus(t);
    const voter = await c.student({
      firstName: "Quinn",
      instagramHandle: "@quinn.q",
      emojis: ["🎸"],
      graduationYear: 2026,
    });
    const other = await c.student();
    const { votes } = await receiveVotes(t, {
      recipientId: c.me.id,
      voterIds: [voter.id, other.id, voter.id],
      at: new Date(Date.now() - 10_000),
    });
    await setCredits(c.me.id, 2);

    const res = await unlock(c.headers, votes[0]!.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      unlockedUser: {
        id: votes[0]!.id,
        isUnlocked: true,
        photo: "/api/media/test/photo.jpg",
        name: "Quinn",
        graduationYear: 2026,
        instagramHandle: "@quinn.q",
        emojis: ["🎸"],
        prompt: expect.any(String),
        // The hour it was delivered, as on a locked card: an exact time would link a friend's inbox.
        createdAt: hourOf(votes[0]!.createdAt.toISOString()),
      },
      remainingUnlocks: 1,
    });
    const page = InboxPage.parse((await forUser(c.headers)).json());
    const byId = new Map(page.votes.map((v) => [v.id, v]));
    expect(byId.get(votes[0]!.id)?.isUnlocked).toBe(true);
    expect(byId.get(votes[2]!.id)?.isUnlocked).toBe(true);
    expect(byId.get(votes[1]!.id)?.isUnlocked).toBe(false);

    // The same voter again, through their other card: free.
    const again = await unlock(c.headers, votes[2]!.id);
    expect(again.json().remainingUnlocks).toBe(1);
  });

  it("answers 402 with a message when no credit is left, and reveals nothing", async () => {
    const c = await campus(t);
    const voter = await c.student({ firstName: "Hidden" });
    const { votes } = await receiveVotes(t, { recipientId: c.me.id, voterIds: [voter.id], at: new Date() });
    const res = await unlock(c.headers, votes[0]!.id);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: UNLOCK_MESSAGES.noCredits, code: "PAYMENT_REQUIRED" });
    expect((await forUser(c.headers)).body).not.toContain("Hidden");
  });

  it("answers another student's card exactly like one that does not exist", async () => {
    const a = await campus(t);
    const b = await campus(t);
    const voter = await a.student();
    const { votes } = await receiveVotes(t, { recipientId: a.me.id, voterIds: [voter.id], at: new Date() });
    await setCredits(b.me.id, 5);
    const theirs = await unlock(b.headers, votes[0]!.id);
    const missing = await unlock(b.headers, "00000000-0000-4000-8000-000000000000");
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual(missing.json());
    const notUuid = await unlock(b.headers, "not-a-uuid");
    expect(notUuid.statusCode).toBeLessThan(500);
    const [row] = await t.deps.db.select({ credits: users.remainingUnlocks }).from(users).where(eq(users.id, b.me.id));
    expect(row!.credits).toBe(5);
  });

  it("reveals exactly 3 of 50 parallel unlocks with 3 credits, leaving 0", async () => {
    const c = await campus(t);
    const voters = await Promise.all(Array.from({ length: 50 }, () => c.student()));
    const { votes } = await receiveVotes(t, {
      recipientId: c.me.id,
      voterIds: voters.map((v) => v.id),
      at: new Date(Date.now() - 60_000),
    });
    await setCredits(c.me.id, 3);
    const results = await Promise.all(votes.map((vote) => unlock(c.headers, vote.id)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 402)).toHaveLength(47);
    const [row] = await t.deps.db.select({ credits: users.remainingUnlocks }).from(users).where(eq(users.id, c.me.id));
    expect(row!.credits).toBe(0);
    const page = InboxPage.parse((await forUser(c.headers, "?limit=50")).json());
    expect(page.votes.filter((v) => v.isUnlocked)).toHaveLength(3);
  });
});

import { ERROR_MESSAGES, REPORTER_WEIGHT, REPORTS_TO_HOLD, InboxPage } from "@quad/contracts";
import { rounds, unlocks, users, voterState } from "@quad/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { showTo } from "../../test/shown";
import { campus, sessionFor } from "../../test/voters";
import { receiveVotes } from "../../test/votes";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const post = (headers: Headers, url: string, payload: object) =>
  t.app.inject({ method: "POST", url, headers, payload });
const round = async (headers: Headers) =>
  (await t.app.inject({ method: "GET", url: "/api/prompts/random", headers })).json();

describe("blocking", () => {
  it("hides both students from each other's rounds until unblocked", async () => {
    const c = await campus(t, { gender: "female", preference: "female" });
    const target = await c.student({ gender: "female", preference: "female" });
    const others = await Promise.all(Array.from({ length: 4 }, () => c.student({ gender: "female" })));
    expect(others).toHaveLength(4);
    // Only a student one was shown can be blocked.
    await showTo(t, c.me.id, target.id, others[0]!.id);
    expect((await post(c.headers, "/api/safety/block", { userId: target.id })).json()).toEqual({ ok: true });

    const theirHeaders = { authorization: `Bearer ${(await sessionFor(t, target.phone)).token}` };
    for (let i = 0; i < 8; i++) {
      const mine = await round(c.headers);
      expect(JSON.stringify(mine)).not.toContain(target.id);
      await post(c.headers, "/api/votes/store", { userId: mine.users[0].id, promptId: mine.prompt.id });
      const theirs = await round(theirHeaders);
      expect(JSON.stringify(theirs)).not.toContain(c.me.id);
      await post(theirHeaders, "/api/votes/store", { userId: theirs.users[0].id, promptId: theirs.prompt.id });
    }
    const list = (await t.app.inject({ method: "GET", url: "/api/safety/blocks", headers: c.headers })).json();
    expect(list.blocked.map((b: { userId: string }) => b.userId)).toEqual([target.id]);
    await post(c.headers, "/api/safety/unblock", { userId: target.id });
    expect(
      (await t.app.inject({ method: "GET", url: "/api/safety/blocks", headers: c.headers })).json().blocked,
    ).toEqual([]);
  });

  it("blocks the voter behind an unlocked card, and refuses a locked card", async () => {
    const c = await campus(t);
    const voter = await c.student();
    const { votes } = await receiveVotes(t, { recipientId: c.me.id, voterIds: [voter.id], at: new Date() });
    const locked = await post(c.headers, "/api/safety/block", { voteCardId: votes[0]!.id });
    expect(locked.statusCode).toBe(404);
    await t.deps.db.insert(unlocks).values({ ownerId: c.me.id, voterId: voter.id });
    expect((await post(c.headers, "/api/safety/block", { voteCardId: votes[0]!.id })).statusCode).toBe(200);
  });

  it("refuses to store a vote between blocked students", async () => {
    const c = await campus(t);
    for (let i = 0; i < 3; i++) await c.student();
    const r = await round(c.headers);
    await t.deps.db
      .insert((await import("@quad/db/schema")).blocks)
      .values({ blockerId: r.users[0].id, blockedId: c.me.id });
    const res = await post(c.headers, "/api/votes/store", { userId: r.users[0].id, promptId: r.prompt.id });
    expect(res.statusCode).toBe(409);
  });
});

describe("reporting", () => {
  it("pauses a profile after 3 established reporters who were shown it; one reporter cannot report twice", async () => {
    const c = await campus(t);
    const reported = await c.student({ gender: "female" });
    const beside = await c.student({ gender: "female" });
    // Old enough to count in full (decision 0010); who may report, and what new accounts weigh, is tested in security/.
    const createdAt = new Date(Date.now() - (REPORTER_WEIGHT.youngAccountDays + 1) * 24 * 60 * 60 * 1000);
    const reporters = await Promise.all(
      Array.from({ length: REPORTS_TO_HOLD }, () => c.student({ gender: "male", createdAt })),
    );
    for (const reporter of reporters) await showTo(t, reporter.id, reported.id, beside.id);
    const headersOf = async (phone: string) => ({ authorization: `Bearer ${(await sessionFor(t, phone)).token}` });

    const first = await headersOf(reporters[0]!.phone);
    expect(
      (await post(first, "/api/safety/report", { target: { userId: reported.id }, reason: "fake_profile" })).statusCode,
    ).toBe(200);
    const twice = await post(first, "/api/safety/report", { target: { userId: reported.id }, reason: "harassment" });
    expect(twice.statusCode).toBe(409);
    for (const reporter of reporters.slice(1, -1)) {
      await post(await headersOf(reporter.phone), "/api/safety/report", {
        target: { userId: reported.id },
        reason: "under_18",
      });
    }
    const [before] = await t.deps.db.select().from(users).where(eq(users.id, reported.id));
    expect(before!.pausedAt).toBeNull();
    await post(await headersOf(reporters.at(-1)!.phone), "/api/safety/report", {
      target: { userId: reported.id },
      reason: "other",
      note: "Not a real person",
    });
    const [after] = await t.deps.db.select().from(users).where(eq(users.id, reported.id));
    expect(after!.pausedAt).not.toBeNull();
    expect(after!.heldForReviewAt).not.toBeNull();
  });

  it("closes the reporter's open round showing the reported student, so the voting screen moves on", async () => {
    const c = await campus(t);
    for (let i = 0; i < 3; i++) await c.student();
    const r = await round(c.headers);
    const reported = r.users[0].id as string;
    expect(
      (await post(c.headers, "/api/safety/report", { target: { userId: reported }, reason: "fake_profile" }))
        .statusCode,
    ).toBe(200);
    const [stillOpen] = await t.deps.db
      .select({ id: voterState.userId })
      .from(voterState)
      .where(and(eq(voterState.userId, c.me.id), eq(voterState.roundOpen, true)));
    expect(stillOpen).toBeUndefined();
    const [closed] = await t.deps.db
      .select()
      .from(rounds)
      .where(and(eq(rounds.voterId, c.me.id), eq(rounds.status, "closed")));
    expect([closed?.candidateAId, closed?.candidateBId]).toContain(reported);
    // The old round takes no vote any more.
    expect(
      (await post(c.headers, "/api/votes/store", { userId: reported, promptId: r.prompt.id })).statusCode,
    ).not.toBe(200);
  });

  it("needs a note for 'other' and a known reason", async () => {
    const c = await campus(t);
    const other = await c.student();
    expect(
      (await post(c.headers, "/api/safety/report", { target: { userId: other.id }, reason: "other" })).json()
        .fieldErrors.note,
    ).toEqual(["Tell us what happened"]);
    expect(
      (await post(c.headers, "/api/safety/report", { target: { userId: other.id }, reason: "rude" })).statusCode,
    ).toBe(400);
  });
});

describe("pause and preview", () => {
  it("a paused student is never drawn; a held one cannot unpause", async () => {
    const c = await campus(t, { gender: "female", preference: "male" });
    const paused = await c.student({ gender: "female" });
    const pausedHeaders = { authorization: `Bearer ${(await sessionFor(t, paused.phone)).token}` };
    expect((await post(pausedHeaders, "/api/users/pause", { paused: true })).json().paused).toBe(true);
    const voter = await campus(t);
    expect(voter).toBeDefined();
    const viewer = await c.student({ gender: "male", preference: "female" });
    const viewerHeaders = { authorization: `Bearer ${(await sessionFor(t, viewer.phone)).token}` };
    for (let i = 0; i < 3; i++) {
      const r = await round(viewerHeaders);
      expect(JSON.stringify(r)).not.toContain(paused.id);
      if (r.users) await post(viewerHeaders, "/api/votes/store", { userId: r.users[0].id, promptId: r.prompt.id });
    }
    expect((await post(pausedHeaders, "/api/users/pause", { paused: false })).json().paused).toBe(false);
    await t.deps.db
      .update(users)
      .set({ pausedAt: new Date(), heldForReviewAt: new Date() })
      .where(eq(users.id, paused.id));
    const held = await post(pausedHeaders, "/api/users/pause", { paused: false });
    expect(held.statusCode).toBe(403);
    expect(held.json().message).toBe(ERROR_MESSAGES.heldForReview);
    const me = await t.app.inject({ method: "GET", url: "/api/users/me", headers: pausedHeaders });
    expect(me.json()).toMatchObject({ paused: true, heldForReview: true });
  });

  it("opts in and out of the landing preview", async () => {
    const c = await campus(t);
    expect((await post(c.headers, "/api/users/preview", { showInPreview: false })).json().showInPreview).toBe(false);
    expect((await post(c.headers, "/api/users/preview", { showInPreview: true })).json().showInPreview).toBe(true);
  });
});

describe("deleting an account", () => {
  it("removes the profile at once, keeps cast votes unrevealable, and frees the phone", async () => {
    const c = await campus(t);
    const recipient = await c.student();
    const voterOfMine = await c.student();
    const { votes: cast } = await receiveVotes(t, { recipientId: recipient.id, voterIds: [c.me.id], at: new Date() });
    await receiveVotes(t, { recipientId: c.me.id, voterIds: [voterOfMine.id], at: new Date() });
    await t.deps.db.insert(unlocks).values({ ownerId: recipient.id, voterId: c.me.id });

    expect((await post(c.headers, "/api/users/delete-account", { confirm: "nope" })).statusCode).toBe(400);
    expect((await post(c.headers, "/api/users/delete-account", { confirm: "DELETE" })).json()).toEqual({ ok: true });
    // The account's sessions ended with it (security/sign-out.test.ts): the old token is refused.
    const me = await t.app.inject({ method: "GET", url: "/api/users/me", headers: c.headers });
    expect(me.statusCode).toBe(401);
    expect((await t.deps.db.select().from(users).where(eq(users.id, c.me.id))).length).toBe(0);

    const recipientHeaders = { authorization: `Bearer ${(await sessionFor(t, recipient.phone)).token}` };
    const page = InboxPage.parse(
      (await t.app.inject({ method: "GET", url: "/api/votes/for-user", headers: recipientHeaders })).json(),
    );
    const card = page.votes.find((v) => v.id === cast[0]!.id)!;
    expect(card.isUnlocked).toBe(false);
    await t.deps.db.update(users).set({ remainingUnlocks: 3 }).where(eq(users.id, recipient.id));
    expect((await post(recipientHeaders, "/api/unlocks/unlock-user", { userId: card.id })).statusCode).toBe(409);

    // The phone is free: signed in afresh it starts a new profile (the old token cannot).
    expect(
      (
        await t.app.inject({
          method: "PATCH",
          url: "/api/users/update",
          headers: c.headers,
          payload: { firstName: "Stale" },
        })
      ).statusCode,
    ).toBe(401);
    const fresh = { authorization: `Bearer ${(await sessionFor(t, c.me.phone)).token}` };
    const again = await t.app.inject({
      method: "PATCH",
      url: "/api/users/update",
      headers: fresh,
      payload: { firstName: "Fresh" },
    });
    expect(again.json().user).toMatchObject({ firstName: "Fresh", isVerified: false, remainingUnlocks: 0 });
  });
});

describe("exporting my data", () => {
  it("answers everything about me and nothing that unmasks a voter", async () => {
    const c = await campus(t);
    const secretVoter = await c.student({ firstName: "Secretive" });
    await receiveVotes(t, { recipientId: c.me.id, voterIds: [secretVoter.id], at: new Date() });
    const res = await t.app.inject({ method: "GET", url: "/api/users/export", headers: c.headers });
    expect(res.statusCode).toBe(200);
    const data = res.json();
    expect(data.profile.id).toBe(c.me.id);
    expect(data.votesReceived).toHaveLength(1);
    expect(data.flashSale).toBeNull();
    expect(res.body).not.toContain("Secretive");
    expect(res.body).not.toContain(secretVoter.id);
  });
});

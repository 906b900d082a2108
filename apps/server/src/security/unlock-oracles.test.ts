import { users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { campus, sessionFor } from "../test/voters";
import { receiveVotes } from "../test/votes";

/**
 * The unlock endpoint must not be an oracle on a locked card's voter. The
 * attack: a recipient with no credits left asks to unlock one of their
 * locked cards again and again (it costs nothing while it is refused) and
 * watches the answer. If the answer changes when the voter deletes their
 * account ("this voter has deleted their account"), the recipient learns,
 * for free, that this card's voter is someone who just left Quad — and a
 * friend who says "I deleted my Quad yesterday" is named by elimination.
 * A card whose voter is gone must answer a caller without credits exactly
 * as any other locked card does. Over REST and tRPC.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

async function unlock(via: "rest" | "trpc", headers: Headers, cardId: string) {
  const url = via === "rest" ? "/api/unlocks/unlock-user" : "/api/trpc/inbox.unlock";
  const res = await t.app.inject({ method: "POST", url, headers, payload: { userId: cardId } });
  const body = res.json();
  return {
    status: res.statusCode,
    message: (via === "rest" ? body.message : body.error?.message) as string | undefined,
  };
}

const setCredits = (userId: string, credits: number) =>
  t.deps.db.update(users).set({ remainingUnlocks: credits }).where(eq(users.id, userId));
const creditsOf = async (userId: string) =>
  (await t.deps.db.select({ n: users.remainingUnlocks }).from(users).where(eq(users.id, userId)))[0]!.n;

describe("unlocking without credits says nothing about the voter", () => {
  it("a card answers the same before and after its voter deletes their account (REST and tRPC)", async () => {
    const c = await campus(t, { gender: "female" });
    const leaver = await c.student({ gender: "male" });
    const stayer = await c.student({ gender: "male" });
    const { votes } = await receiveVotes(t, {
      recipientId: c.me.id,
      voterIds: [leaver.id, stayer.id],
      at: new Date(Date.now() - 60_000),
    });
    const [leaverCard, stayerCard] = [votes[0]!.id, votes[1]!.id];
    await setCredits(c.me.id, 0);

    const before = {
      rest: await unlock("rest", c.headers, leaverCard),
      trpc: await unlock("trpc", c.headers, leaverCard),
      control: await unlock("rest", c.headers, stayerCard),
    };
    expect(before.rest.status).toBe(402);
    expect(before.trpc.status).toBe(402);

    // The voter deletes their account through the API.
    const leaverSession = await sessionFor(t, leaver.phone);
    const deleted = await t.app.inject({
      method: "POST",
      url: "/api/users/delete-account",
      headers: { authorization: `Bearer ${leaverSession.token}` },
      payload: { confirm: "DELETE" },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const after = {
      rest: await unlock("rest", c.headers, leaverCard),
      trpc: await unlock("trpc", c.headers, leaverCard),
      control: await unlock("rest", c.headers, stayerCard),
    };
    expect(after.rest, "REST").toEqual(before.rest);
    expect(after.trpc, "tRPC").toEqual(before.trpc);
    // And the gone voter's card answers as the card of a voter who is still here.
    expect(after.rest).toEqual(after.control);
    expect(before.control).toEqual(after.control);
  });

  it("with a credit, a gone voter's card is refused without spending it", async () => {
    const c = await campus(t, { gender: "female" });
    const leaver = await c.student({ gender: "male" });
    const { votes } = await receiveVotes(t, {
      recipientId: c.me.id,
      voterIds: [leaver.id],
      at: new Date(Date.now() - 60_000),
    });
    await t.deps.db.delete(users).where(eq(users.id, leaver.id));
    await setCredits(c.me.id, 1);
    for (const via of ["rest", "trpc"] as const) {
      expect((await unlock(via, c.headers, votes[0]!.id)).status, via).toBe(409);
    }
    expect(await creditsOf(c.me.id)).toBe(1);
  });
});

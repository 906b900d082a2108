import { insertTestPrompt } from "@quad/db/testing";
import { unlocks, votes } from "@quad/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import type { Protocol } from "../test/inbox-client";
import { testClock } from "../test/sms";
import { campus, sessionFor } from "../test/voters";

/**
 * Before its delivery moment a vote exists for no one, the safety doors
 * included: reporting or blocking by the `voteCardId` of a vote not yet
 * delivered (its voter already unlocked on an earlier card) answers 404 as a
 * random id does, never 200, so the doors cannot tell "X voted for me again".
 * The id is a random uuid no answer carries before delivery; this holds the
 * rule should one ever leak.
 */
const clock = testClock("2026-03-09T19:20:00Z");
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: clock.now, env: { VOTE_DELIVERY_WINDOW_S: "60" } });
});
afterAll(() => t?.close());

describe.each<Protocol>(["rest", "trpc"])("safety doors and an undelivered card over %s", (protocol) => {
  it.each(["report", "block"] as const)(
    "%s by an undelivered card's id answers as a random id does (404)",
    async (kind) => {
      const c = await campus(t, { gender: "male", preference: "female" });
      const recipient = await c.student({ gender: "female" });
      const prompt = await insertTestPrompt(t.deps.db);
      const now = clock.now().getTime();
      const [, pending] = await t.deps.db
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
        .returning({ id: votes.id });
      // Unlocked on the delivered card.
      await t.deps.db.insert(unlocks).values({ ownerId: recipient.id, voterId: c.me.id, createdAt: clock.now() });
      const headers = { authorization: `Bearer ${(await sessionFor(t, recipient.phone)).token}` };
      const call = async (voteCardId: string) => {
        const payload = kind === "report" ? { target: { voteCardId }, reason: "harassment" } : { voteCardId };
        const res = await t.app.inject({
          method: "POST",
          url: protocol === "rest" ? `/api/safety/${kind}` : `/api/trpc/safety.${kind}`,
          headers,
          payload,
        });
        return { status: res.statusCode, body: res.body };
      };
      const random = await call("6f1c2b7e-3d4a-4b5c-8d9e-0a1b2c3d4e5f");
      expect(random.status).toBe(404);
      expect(await call(pending!.id)).toEqual(random);
    },
  );
});

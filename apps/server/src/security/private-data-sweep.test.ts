import { routeList } from "@quad/contracts";
import { unlocks, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { testPhone } from "../test/auth";
import { showTo } from "../test/shown";
import { campus, sessionFor } from "../test/voters";
import { receiveVotes } from "../test/votes";

/**
 * Only what a viewer may see leaves the server. A victim with a full life in
 * the app (votes cast, one of them for the attacker, a purchase, a block,
 * an unlock, texts switched off) is looked at by four attackers: a student
 * of the same school who was shown the victim in a round and holds the
 * victim's vote, a student of another school, a brand-new account without
 * a profile, and a student held for review. Each calls every read of the
 * route table over REST and tRPC, the moderators' procedures, the landing
 * preview, and the safety and unlock doors aimed at the victim. No answer
 * may carry the victim's phone, handle, the exact time of a vote they cast
 * for someone else, their purchases, whom they blocked or unlocked, or
 * (to anyone not shown them) their id.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const trpcGet = (path: string, headers: Headers, input?: unknown) =>
  t.app.inject({
    method: "GET",
    url: `/api/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
    headers,
  });

describe("no private data of another student leaves the server", () => {
  it("for a same-school student, another school's, a brand-new account and a held one, over REST and tRPC", async () => {
    const c = await campus(t, { gender: "male", preference: "female", firstName: "Attacker" });
    const victim = await c.student({
      gender: "female",
      preference: "male",
      firstName: "Victima",
      instagramHandle: "@victim.secret_ig",
    });
    const friend = await c.student({ gender: "male", firstName: "Friendo" });
    const blockedByVictim = await c.student({ gender: "male", firstName: "Zanzibar" });
    const unlockedByVictim = await c.student({ gender: "male", firstName: "Quixote" });
    const victimHeaders = { authorization: `Bearer ${(await sessionFor(t, victim.phone)).token}` };

    // The victim's life: a vote for the attacker and one for a friend (at a telling millisecond),
    // a purchase, a block, an unlock, texts switched off.
    const { votes: toAttacker } = await receiveVotes(t, {
      recipientId: c.me.id,
      voterIds: [victim.id],
      at: new Date(Date.now() - 120_000),
    });
    const secretTime = new Date(Date.now() - 90_000);
    secretTime.setUTCMilliseconds(777);
    await receiveVotes(t, { recipientId: friend.id, voterIds: [victim.id], at: secretTime });
    const bought = await t.app.inject({
      method: "POST",
      url: "/api/payments/create-payment-intent",
      headers: victimHeaders,
      payload: { productId: "unlock-3" },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const purchaseIds = (
      (await t.app.inject({ method: "GET", url: "/api/payments/history", headers: victimHeaders })).json()
        .purchases as { id: string }[]
    ).map((p) => p.id);
    const clientSecret = bought.json().clientSecret as string;
    await showTo(t, victim.id, blockedByVictim.id, unlockedByVictim.id);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: "/api/safety/block",
          headers: victimHeaders,
          payload: { userId: blockedByVictim.id },
        })
      ).statusCode,
    ).toBe(200);
    await t.deps.db.insert(unlocks).values({ ownerId: victim.id, voterId: unlockedByVictim.id });
    expect(
      (
        await t.app.inject({
          method: "PUT",
          url: "/api/users/sms-settings",
          headers: victimHeaders,
          payload: { enabled: false },
        })
      ).statusCode,
    ).toBe(200);

    // The attacker was shown the victim; the others never were.
    await showTo(t, c.me.id, victim.id, friend.id);
    const other = await campus(t, { gender: "male", preference: "female" });
    const fresh = { authorization: `Bearer ${(await sessionFor(t, testPhone())).token}` };
    const held = await c.student({
      gender: "male",
      preference: "female",
      heldForReviewAt: new Date(),
      pausedAt: new Date(),
    });
    const heldHeaders = { authorization: `Bearer ${(await sessionFor(t, held.phone)).token}` };

    const secrets = [
      victim.phone,
      victim.phone.slice(2),
      "victim.secret_ig",
      secretTime.toISOString(),
      secretTime.toISOString().slice(0, 19),
      clientSecret,
      ...purchaseIds,
      blockedByVictim.id,
      "Zanzibar",
      unlockedByVictim.id,
      "Quixote",
    ];
    const personas: { name: string; headers: Headers; shownVictim: boolean }[] = [
      { name: "same school, shown the victim", headers: c.headers, shownVictim: true },
      { name: "another school", headers: other.headers, shownVictim: false },
      { name: "brand-new account", headers: fresh, shownVictim: false },
      { name: "held for review", headers: heldHeaders, shownVictim: false },
    ];

    for (const persona of personas) {
      const answers: { via: string; body: string }[] = [];
      for (const route of routeList.filter((r) => r.method === "GET" && !r.devOnly)) {
        const query = route.procedure === "rounds.preview" ? "?gender=female" : "";
        const rest = await t.app.inject({ method: "GET", url: `/api${route.path}${query}`, headers: persona.headers });
        answers.push({ via: `REST ${route.path}`, body: rest.body });
        const trpc = await trpcGet(
          route.procedure,
          persona.headers,
          route.procedure === "rounds.preview" ? { gender: "female" } : undefined,
        );
        answers.push({ via: `tRPC ${route.procedure}`, body: trpc.body });
      }
      for (const path of ["admin.reviewQueue", "admin.auditTrail"])
        answers.push({ via: `tRPC ${path}`, body: (await trpcGet(path, persona.headers)).body });
      // The doors aimed at the victim: by id, by the attacker's card, and with the victim's payment secret.
      const doors: [string, string, object][] = [
        ["/api/safety/block", "safety.block", { userId: victim.id }],
        ["/api/safety/report", "safety.report", { target: { userId: victim.id }, reason: "other", note: "probe" }],
        ["/api/safety/report", "safety.report", { target: { voteCardId: toAttacker[0]!.id }, reason: "fake_profile" }],
        ["/api/unlocks/unlock-user", "inbox.unlock", { userId: toAttacker[0]!.id }],
        ["/api/payments/local/confirm", "payments.localConfirm", { clientSecret, cardNumber: "4242424242424242" }],
      ];
      for (const [url, procedure, payload] of doors) {
        answers.push({
          via: `REST ${url}`,
          body: (await t.app.inject({ method: "POST", url, headers: persona.headers, payload })).body,
        });
        answers.push({
          via: `tRPC ${procedure}`,
          body: (
            await t.app.inject({ method: "POST", url: `/api/trpc/${procedure}`, headers: persona.headers, payload })
          ).body,
        });
      }
      const forbidden = persona.shownVictim ? secrets : [...secrets, victim.id, "Victima"];
      const leaks = answers.flatMap(({ via, body }) =>
        forbidden.filter((s) => body.includes(s)).map((s) => `${via} carries ${s}`),
      );
      expect(leaks, persona.name).toEqual([]);
    }

    // (The sweep has teeth: the victim's own export carries their phone, handle, purchases, block and unlock. Not
    // their vote's exact time: even their own file gives it to the hour.)
    const own = (await t.app.inject({ method: "GET", url: "/api/users/export", headers: victimHeaders })).body;
    const ownSecrets = [victim.phone, "victim.secret_ig", ...purchaseIds, "Zanzibar", "Quixote"];
    expect(ownSecrets.filter((s) => !own.includes(s))).toEqual([]);

    // None of those doors changed anything of the victim's: no purchase fulfilled, no credits given.
    const [after] = await t.deps.db
      .select({ credits: users.remainingUnlocks, held: users.heldForReviewAt })
      .from(users)
      .where(eq(users.id, victim.id));
    expect(after).toEqual({ credits: victim.remainingUnlocks, held: null });
  });
});

import { BOOST_MESSAGES, BOOST_OPTIONS } from "@quad/contracts";
import { purchases, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { VIAS, type Via } from "../test/school-email";
import { campus } from "../test/voters";

/**
 * A boost makes a student drawn more often; sold to a student nobody sees,
 * its days would run for nothing. Buying one is refused to a student who has
 * not proved the school e-mail, is paused or is held, over REST and tRPC; and
 * a payment started while shown but confirmed after is refunded, not applied.
 */

const NOW = Date.parse("2026-05-01T12:00:00Z");
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(NOW) });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
async function call(via: Via, headers: Headers, procedure: string, rest: string, input: object) {
  const res = await t.app.inject({
    method: "POST",
    url: via === "rest" ? `/api${rest}` : `/api/trpc/${procedure}`,
    headers,
    payload: input,
  });
  const body = res.json();
  return {
    status: res.statusCode,
    message: (via === "rest" ? body.message : body.error?.message) as string | undefined,
    data: via === "rest" ? body : body.result?.data,
  };
}
const startPayment = (via: Via, headers: Headers, productId: string) =>
  call(via, headers, "payments.createPaymentIntent", "/payments/create-payment-intent", { productId });
const confirm = (via: Via, headers: Headers, clientSecret: string) =>
  call(via, headers, "payments.localConfirm", "/payments/local/confirm", {
    clientSecret,
    cardNumber: "4242 4242 4242 4242",
  });
const boostEnd = async (id: string) =>
  (await t.deps.db.select({ end: users.boostEndsAt }).from(users).where(eq(users.id, id)))[0]!.end;
const purchasesOf = (id: string) =>
  t.deps.db.select({ status: purchases.status }).from(purchases).where(eq(purchases.userId, id));

const unseen = [
  ["has not proved the school e-mail", { member: false }, BOOST_MESSAGES.notMember],
  ["is paused", { pausedAt: new Date(NOW - 1000) }, BOOST_MESSAGES.paused],
  [
    "is held for review",
    { pausedAt: new Date(NOW - 1000), heldForReviewAt: new Date(NOW - 1000) },
    BOOST_MESSAGES.held,
  ],
] as const;

describe("buying a boost while nobody sees you", () => {
  for (const via of VIAS)
    it.each(unseen)(`a student who %s is refused every boost, with the reason (${via})`, async (_, state, message) => {
      const c = await campus(t, state);
      for (const boost of BOOST_OPTIONS) {
        const res = await startPayment(via, c.headers, boost.id);
        expect(res.status, boost.id).toBe(403);
        expect(res.message).toBe(message);
      }
      expect(await purchasesOf(c.me.id)).toEqual([]);
      // Unlock credits are not a boost: still for sale.
      expect((await startPayment(via, c.headers, "unlock-3")).status).toBe(200);
    });

  it.each(VIAS)("a shown student buys one (%s)", async (via) => {
    const c = await campus(t);
    const res = await startPayment(via, c.headers, "boost-1");
    expect(res.status).toBe(200);
    expect((await confirm(via, c.headers, res.data.clientSecret)).status).toBe(200);
    expect(await boostEnd(c.me.id)).toEqual(new Date(NOW + 86_400_000));
  });
});

describe("a boost paid for while shown, confirmed after", () => {
  it.each(VIAS)(
    "is not applied once the student paused: it is refunded, and confirming again changes nothing (%s)",
    async (via) => {
      const c = await campus(t);
      const res = await startPayment(via, c.headers, "boost-7");
      expect(res.status).toBe(200);
      const paused = await call(via, c.headers, "account.pause", "/users/pause", { paused: true });
      expect(paused.status).toBe(200);
      for (let i = 0; i < 2; i++) {
        const confirmed = await confirm(via, c.headers, res.data.clientSecret);
        expect(confirmed.status).toBe(403);
        expect(confirmed.message).toBe(BOOST_MESSAGES.refunded);
      }
      expect(await boostEnd(c.me.id)).toBeNull();
      expect(await purchasesOf(c.me.id)).toEqual([{ status: "refunded" }]);
      // Resuming does not bring the refunded boost back.
      expect((await call(via, c.headers, "account.pause", "/users/pause", { paused: false })).status).toBe(200);
      expect(await boostEnd(c.me.id)).toBeNull();
    },
  );
});

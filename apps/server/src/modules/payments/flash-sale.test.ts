import { FLASH_SALE_HOURS } from "@quad/contracts";
import { flashSaleOffers, purchases } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { campus, sessionFor } from "../../test/voters";

let t: TestApp;
let clock = Date.parse("2026-05-01T12:00:00Z");
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(clock) });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const offer = async (headers: Headers) => {
  const res = await t.app.inject({ method: "POST", url: "/api/payments/flash-sale", headers, payload: {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    productId: string;
    priceCents: number;
    originalPriceCents: number;
    endsAt: string;
    active: boolean;
  };
};
const intentAmount = async (headers: Headers, productId: string) => {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/payments/create-payment-intent",
    headers,
    payload: { productId },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().amountCents as number;
};
const HOUR = 3_600_000;
/** A fresh session at the test clock's time (sessions expire as the clock moves on). */
const signedIn = async (phone: string) => ({ authorization: `Bearer ${(await sessionFor(t, phone)).token}` });

describe("the flash sale has a real end", () => {
  it("starts the first time it is offered, lasts its hours, and is not restarted by asking again", async () => {
    const c = await campus(t);
    const first = await offer(c.headers);
    expect(first).toEqual({
      productId: "unlock-1",
      priceCents: 99,
      originalPriceCents: 299,
      endsAt: new Date(clock + FLASH_SALE_HOURS * HOUR).toISOString(),
      active: true,
    });
    const start = clock;
    clock = start + 5 * HOUR;
    try {
      expect((await offer(await signedIn(c.me.phone))).endsAt).toBe(first.endsAt);
    } finally {
      clock = start;
    }
  });

  it("charges the sale price only while the sale is on", async () => {
    const c = await campus(t);
    // Never offered: the one-off price the terms state.
    expect(await intentAmount(c.headers, "unlock-1")).toBe(299);
    await offer(c.headers);
    expect(await intentAmount(c.headers, "unlock-1")).toBe(99);
    // Other packages are unaffected.
    expect(await intentAmount(c.headers, "unlock-3")).toBe(799);

    const start = clock;
    clock = start + FLASH_SALE_HOURS * HOUR;
    try {
      const later = await signedIn(c.me.phone);
      const ended = await offer(later);
      expect(ended).toMatchObject({ active: false, priceCents: 299 });
      expect(Date.parse(ended.endsAt)).toBe(start + FLASH_SALE_HOURS * HOUR);
      expect(await intentAmount(later, "unlock-1")).toBe(299);
    } finally {
      clock = start;
    }
    const amounts = await t.deps.db
      .select({ amount: purchases.amountCents })
      .from(purchases)
      .where(eq(purchases.userId, c.me.id));
    expect(amounts.map((row) => row.amount).sort((a, b) => a - b)).toEqual([99, 299, 299, 799]);
  });

  it("keeps one sale per student when asked for at once", async () => {
    const c = await campus(t);
    const offers = await Promise.all(Array.from({ length: 6 }, () => offer(c.headers)));
    expect(new Set(offers.map((o) => o.endsAt)).size).toBe(1);
    expect(await t.deps.db.select().from(flashSaleOffers).where(eq(flashSaleOffers.userId, c.me.id))).toHaveLength(1);
  });

  it("needs a session", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/payments/flash-sale", payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

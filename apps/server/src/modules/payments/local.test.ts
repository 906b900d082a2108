import { purchases, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { campus } from "../../test/voters";
import { PAYMENT_MESSAGES } from "./service";

let t: TestApp;
const clock = Date.parse("2026-05-01T12:00:00Z");
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(clock) });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
const post = (headers: Headers, url: string, payload: object) =>
  t.app.inject({ method: "POST", url, headers, payload });
const intent = async (headers: Headers, productId: string) => {
  const res = await post(headers, "/api/payments/create-payment-intent", { productId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().clientSecret as string;
};
const confirm = (headers: Headers, clientSecret: string, cardNumber = "4242 4242 4242 4242") =>
  post(headers, "/api/payments/local/confirm", { clientSecret, cardNumber });
const me = async (headers: Headers) => (await t.app.inject({ method: "GET", url: "/api/users/me", headers })).json();

describe("local payments", () => {
  it("adds the package's credits when the test card pays", async () => {
    const c = await campus(t);
    const secret = await intent(c.headers, "unlock-3");
    const res = await confirm(c.headers, secret);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "succeeded", productId: "unlock-3" });
    expect((await me(c.headers)).remainingUnlocks).toBe(3);
  });

  it("charges the catalogue's price and refuses a price from the client", async () => {
    const c = await campus(t);
    const withAmount = await post(c.headers, "/api/payments/create-payment-intent", {
      productId: "unlock-5",
      amount: 1,
    });
    expect(withAmount.statusCode).toBe(400);
    await intent(c.headers, "unlock-5");
    const rows = await t.deps.db.select().from(purchases).where(eq(purchases.userId, c.me.id));
    expect(rows.map((r) => [r.productId, r.amountCents, r.status])).toEqual([["unlock-5", 999, "pending"]]);
  });

  it("answers an unknown product with 400", async () => {
    const c = await campus(t);
    const res = await post(c.headers, "/api/payments/create-payment-intent", { productId: "unlock-1000" });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors.productId).toEqual(["Unknown product"]);
  });

  it("declines 4000 0000 0000 0002 with 402 and adds nothing", async () => {
    const c = await campus(t);
    const secret = await intent(c.headers, "unlock-3");
    const res = await confirm(c.headers, secret, "4000 0000 0000 0002");
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: "Your card was declined.", code: "PAYMENT_REQUIRED" });
    expect((await me(c.headers)).remainingUnlocks).toBe(0);
    // The same intent can still be paid with another card, as with Stripe.
    expect((await confirm(c.headers, secret)).statusCode).toBe(200);
    expect((await me(c.headers)).remainingUnlocks).toBe(3);
  });

  it("refuses other card numbers", async () => {
    const c = await campus(t);
    const res = await confirm(c.headers, await intent(c.headers, "unlock-1"), "1234 5678 9012 3456");
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(PAYMENT_MESSAGES.invalidCard);
  });

  it("fulfils once however often and however concurrently it is confirmed", async () => {
    const c = await campus(t);
    const secret = await intent(c.headers, "unlock-5");
    const results = await Promise.all(Array.from({ length: 10 }, () => confirm(c.headers, secret)));
    for (const res of results) expect(res.statusCode).toBe(200);
    expect((await confirm(c.headers, secret)).statusCode).toBe(200);
    expect((await me(c.headers)).remainingUnlocks).toBe(5);
  });

  it("does not let a student confirm another student's payment", async () => {
    const a = await campus(t);
    const b = await campus(t);
    const secret = await intent(a.headers, "unlock-3");
    expect((await confirm(b.headers, secret)).statusCode).toBe(404);
    expect((await me(b.headers)).remainingUnlocks).toBe(0);
    expect((await me(a.headers)).remainingUnlocks).toBe(0);
  });

  it("extends a boost from max(now, current end)", async () => {
    const c = await campus(t);
    await confirm(c.headers, await intent(c.headers, "boost-1"));
    expect((await me(c.headers)).boostEndTime).toBe(new Date(clock + 86_400_000).toISOString());
    await confirm(c.headers, await intent(c.headers, "boost-3"));
    expect((await me(c.headers)).boostEndTime).toBe(new Date(clock + 4 * 86_400_000).toISOString());
    // After a boost has ended, a new one starts from now.
    await t.deps.db
      .update(users)
      .set({ boostEndsAt: new Date(clock - 1000) })
      .where(eq(users.id, c.me.id));
    await confirm(c.headers, await intent(c.headers, "boost-7"));
    expect((await me(c.headers)).boostEndTime).toBe(new Date(clock + 7 * 86_400_000).toISOString());
  });

  it("lists the student's own purchases", async () => {
    const c = await campus(t);
    const other = await campus(t);
    // unlock-1 at its sale price: the student's flash sale is on.
    expect((await post(c.headers, "/api/payments/flash-sale", {})).json().active).toBe(true);
    await confirm(c.headers, await intent(c.headers, "unlock-1"));
    await intent(c.headers, "boost-1");
    await intent(other.headers, "unlock-5");
    const res = await t.app.inject({ method: "GET", url: "/api/payments/history", headers: c.headers });
    const list = res.json().purchases as { productId: string; status: string; amountCents: number }[];
    expect(list.map((p) => [p.productId, p.status, p.amountCents]).sort()).toEqual([
      ["boost-1", "pending", 499],
      ["unlock-1", "succeeded", 99],
    ]);
  });

  it("needs a session", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/payments/create-payment-intent",
      payload: { productId: "unlock-1" },
    });
    expect(res.statusCode).toBe(401);
  });
});

import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import type Stripe from "stripe";
import { purchases, users } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { campus } from "../../test/voters";
import { createStripeClient, createStripePaymentProvider } from "./provider";

// Stripe is unreachable here. The SDK is pointed at this in-process fake for
// the calls we make (creating a PaymentIntent, refunding one); webhooks are signed with
// the SDK's own test helper, exactly as Stripe signs them.
const webhookSecret = "whsec_test_secret";
let fakeStripe: FastifyInstance;
let created: { body: Record<string, string>; idempotencyKey: string | undefined }[] = [];
const refunds: { body: Record<string, string>; idempotencyKey: string | undefined }[] = [];
let refuseRefund: string | null = null;
let t: TestApp;
let stripe: Stripe;
let counter = 0;

beforeAll(async () => {
  fakeStripe = Fastify();
  fakeStripe.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  fakeStripe.post("/v1/payment_intents", async (request) => {
    const body = request.body as Record<string, string>;
    created.push({ body, idempotencyKey: request.headers["idempotency-key"] as string | undefined });
    counter += 1;
    const id = `pi_fake_${counter}`;
    return {
      id,
      object: "payment_intent",
      amount: Number(body.amount),
      currency: body.currency,
      client_secret: `${id}_secret_x`,
      status: "requires_payment_method",
    };
  });
  fakeStripe.post("/v1/refunds", async (request, reply) => {
    const body = request.body as Record<string, string>;
    if (refuseRefund)
      return reply
        .code(400)
        .send({ error: { type: "invalid_request_error", code: refuseRefund, message: "Refund refused" } });
    refunds.push({ body, idempotencyKey: request.headers["idempotency-key"] as string | undefined });
    return {
      id: `re_fake_${refunds.length}`,
      object: "refund",
      payment_intent: body.payment_intent,
      status: "succeeded",
    };
  });
  await fakeStripe.listen({ port: 0, host: "127.0.0.1" });
  stripe = createStripeClient({
    secretKey: "sk_test_fake",
    host: "127.0.0.1",
    port: (fakeStripe.server.address() as AddressInfo).port,
    protocol: "http",
  });
  t = await createTestApp({
    env: {
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
    },
    payments: createStripePaymentProvider(stripe),
    stripe,
  });
});
afterAll(async () => {
  await t?.close();
  await fakeStripe?.close();
});

type Headers = Record<string, string>;
async function startPurchase(headers: Headers, productId: string) {
  created = [];
  const res = await t.app.inject({
    method: "POST",
    url: "/api/payments/create-payment-intent",
    headers,
    payload: { productId },
  });
  expect(res.statusCode, res.body).toBe(200);
  const [purchase] = await t.deps.db
    .select()
    .from(purchases)
    .where(eq(purchases.clientSecret, res.json().clientSecret));
  return purchase!;
}

function event(type: string, intent: Partial<Stripe.PaymentIntent> & { id: string }) {
  return JSON.stringify({
    id: `evt_${Math.random().toString(36).slice(2)}`,
    object: "event",
    type,
    data: { object: { object: "payment_intent", ...intent } },
  });
}

function deliver(
  payload: string,
  signature = stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
) {
  return t.app.inject({
    method: "POST",
    url: "/api/payments/webhook",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    payload,
  });
}

const succeeded = (purchase: { providerPaymentId: string; amountCents: number; id: string }) =>
  event("payment_intent.succeeded", {
    id: purchase.providerPaymentId,
    amount: purchase.amountCents,
    amount_received: purchase.amountCents,
    currency: "usd",
    metadata: { purchaseId: purchase.id },
  });
const credits = async (userId: string) =>
  (await t.deps.db.select({ n: users.remainingUnlocks }).from(users).where(eq(users.id, userId)))[0]!.n;

describe("Stripe payments", () => {
  it("refunds a boost, and does not apply it, when its student is shown to no one by the time it is paid", async () => {
    const c = await campus(t);
    const purchase = await startPurchase(c.headers, "boost-3");
    // Paused after starting the payment, before Stripe confirms it.
    await t.deps.db.update(users).set({ pausedAt: new Date() }).where(eq(users.id, c.me.id));
    const payload = succeeded(purchase);
    refunds.length = 0;
    for (let i = 0; i < 2; i++) expect((await deliver(payload)).statusCode).toBe(200);
    const [after] = await t.deps.db
      .select({ end: users.boostEndsAt, status: purchases.status })
      .from(users)
      .innerJoin(purchases, eq(purchases.userId, users.id))
      .where(eq(purchases.id, purchase.id));
    expect(after).toEqual({ end: null, status: "refunded" });
    // Asked again for the replayed event, under one idempotency key: one refund at Stripe.
    expect(refunds.map((r) => [r.body.payment_intent, r.idempotencyKey])).toEqual([
      [purchase.providerPaymentId, `refund-${purchase.id}`],
      [purchase.providerPaymentId, `refund-${purchase.id}`],
    ]);
  });

  it("answers 500 when the refund fails, so Stripe sends the event again; an earlier refund counts as done", async () => {
    const c = await campus(t);
    const purchase = await startPurchase(c.headers, "boost-1");
    await t.deps.db.update(users).set({ schoolVerifiedAt: null, schoolEmailDomain: null }).where(eq(users.id, c.me.id));
    try {
      refuseRefund = "resource_missing";
      expect((await deliver(succeeded(purchase))).statusCode).toBe(500);
      refuseRefund = "charge_already_refunded";
      expect((await deliver(succeeded(purchase))).statusCode).toBe(200);
    } finally {
      refuseRefund = null;
    }
    const [row] = await t.deps.db.select({ end: users.boostEndsAt }).from(users).where(eq(users.id, c.me.id));
    expect(row?.end).toBeNull();
  });

  it("creates the PaymentIntent with the server's price and metadata tying it to the student and product", async () => {
    const c = await campus(t);
    const purchase = await startPurchase(c.headers, "unlock-3");
    expect(created).toHaveLength(1);
    expect(created[0]!.body).toMatchObject({
      amount: "799",
      currency: "usd",
      "metadata[purchaseId]": purchase.id,
      "metadata[userId]": c.me.id,
      "metadata[productId]": "unlock-3",
    });
    expect(created[0]!.idempotencyKey).toBe(`purchase-${purchase.id}`);
    expect(purchase).toMatchObject({ provider: "stripe", amountCents: 799, status: "pending" });
  });

  it("fulfils on a signed payment_intent.succeeded, once, whatever the duplicates", async () => {
    const c = await campus(t);
    const purchase = await startPurchase(c.headers, "unlock-3");
    const payload = succeeded(purchase);
    expect((await deliver(payload)).json()).toEqual({ received: true });
    const replays = await Promise.all(Array.from({ length: 5 }, () => deliver(payload)));
    for (const res of replays) expect(res.statusCode).toBe(200);
    expect(await credits(c.me.id)).toBe(3);
  });

  it("refuses a bad or missing signature with 400 and changes nothing", async () => {
    const c = await campus(t);
    const purchase = await startPurchase(c.headers, "unlock-5");
    const payload = succeeded(purchase);
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else" });
    expect((await deliver(payload, forged)).statusCode).toBe(400);
    expect((await deliver(payload, "t=1,v1=abc")).statusCode).toBe(400);
    const tampered = payload.replace('"amount_received":999', '"amount_received":1');
    const signedOriginal = stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    expect((await deliver(tampered, signedOriginal)).statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json" },
      payload,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await credits(c.me.id)).toBe(0);
  });

  it("handles events out of order: a late failure never undoes a success", async () => {
    const c = await campus(t);
    const purchase = await startPurchase(c.headers, "unlock-1");
    await deliver(succeeded(purchase));
    await deliver(event("payment_intent.payment_failed", { id: purchase.providerPaymentId }));
    const [row] = await t.deps.db.select().from(purchases).where(eq(purchases.id, purchase.id));
    expect(row!.status).toBe("succeeded");
    expect(await credits(c.me.id)).toBe(1);

    // A failure first, then the success (the card was retried): fulfilled.
    const second = await startPurchase(c.headers, "unlock-1");
    await deliver(event("payment_intent.payment_failed", { id: second.providerPaymentId }));
    await deliver(succeeded(second));
    expect(await credits(c.me.id)).toBe(2);
  });

  it("does not fulfil when the amount or metadata do not match the purchase", async () => {
    const c = await campus(t);
    const purchase = await startPurchase(c.headers, "unlock-5");
    await deliver(succeeded({ ...purchase, amountCents: 99 }));
    await deliver(succeeded({ ...purchase, id: "00000000-0000-4000-8000-000000000000" }));
    expect(await credits(c.me.id)).toBe(0);
  });

  it("acknowledges events for unknown payments and other event types without effect", async () => {
    const res = await deliver(
      event("payment_intent.succeeded", { id: "pi_unknown", amount_received: 99, currency: "usd" }),
    );
    expect(res.statusCode).toBe(200);
    expect(
      (await deliver(JSON.stringify({ id: "evt_1", object: "event", type: "charge.refunded", data: { object: {} } })))
        .statusCode,
    ).toBe(200);
  });

  it("turns the local test-card confirmation off", async () => {
    const c = await campus(t);
    const purchase = await startPurchase(c.headers, "unlock-3");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/payments/local/confirm",
      headers: c.headers,
      payload: { clientSecret: purchase.clientSecret, cardNumber: "4242424242424242" },
    });
    expect(res.statusCode).toBe(404);
    expect(await credits(c.me.id)).toBe(0);
  });

  it("tells the client to use Stripe, with the publishable key", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/config" });
    expect(res.json()).toMatchObject({ paymentProvider: "stripe", stripePublishableKey: "pk_test_fake" });
  });
});

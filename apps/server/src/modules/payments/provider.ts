import { randomBytes, randomUUID } from "node:crypto";
import Stripe from "stripe";

/** What a provider needs to start a payment; the amount is always the catalogue's. */
export interface PaymentIntentRequest {
  purchaseId: string;
  userId: string;
  productId: string;
  amountCents: number;
  currency: "usd";
}

export interface PaymentProvider {
  name: "local" | "stripe";
  createIntent(request: PaymentIntentRequest): Promise<{ providerPaymentId: string; clientSecret: string }>;
}

/**
 * Test-card payments for development and demos: the intent exists only in
 * our database, and the app's card form confirms it (see confirmLocalPayment).
 */
export function createLocalPaymentProvider(): PaymentProvider {
  return {
    name: "local",
    async createIntent() {
      const providerPaymentId = `local_pi_${randomUUID().replaceAll("-", "")}`;
      return { providerPaymentId, clientSecret: `${providerPaymentId}_secret_${randomBytes(16).toString("hex")}` };
    },
  };
}

export interface StripeProviderOptions {
  secretKey: string;
  /** Tests point the SDK at an in-process fake; production leaves these unset. */
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

export function createStripeClient(opts: StripeProviderOptions): Stripe {
  return new Stripe(opts.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(opts.host ? { host: opts.host, port: opts.port, protocol: opts.protocol ?? "https" } : {}),
  });
}

/** Stripe PaymentIntents with our price and metadata tying them to the student and product. */
export function createStripePaymentProvider(stripe: Stripe): PaymentProvider {
  return {
    name: "stripe",
    async createIntent(request) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency,
          automatic_payment_methods: { enabled: true },
          metadata: { purchaseId: request.purchaseId, userId: request.userId, productId: request.productId },
        },
        // A retried request must not create a second intent for one purchase.
        { idempotencyKey: `purchase-${request.purchaseId}` },
      );
      if (!intent.client_secret) throw new Error("Stripe answered a PaymentIntent without a client secret");
      return { providerPaymentId: intent.id, clientSecret: intent.client_secret };
    },
  };
}

/**
 * Refunds a payment in full: a boost paid for by a student who was shown to
 * no one when the payment arrived. Idempotent per purchase, and a payment
 * Stripe already refunded counts as done, so a retried webhook may ask again.
 */
export async function refundStripePayment(stripe: Stripe, providerPaymentId: string, purchaseId: string) {
  try {
    await stripe.refunds.create(
      { payment_intent: providerPaymentId, metadata: { purchaseId, reason: "boost-not-shown" } },
      { idempotencyKey: `refund-${purchaseId}` },
    );
  } catch (error) {
    if ((error as { code?: string }).code === "charge_already_refunded") return;
    throw error;
  }
}

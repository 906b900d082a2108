import type { FastifyInstance } from "fastify";
import type Stripe from "stripe";
import type { Database } from "@quad/db";
import { purchases } from "@quad/db/schema";
import { eq } from "drizzle-orm";
import { httpErrorBody } from "../../http/error-body";
import { fulfilPayment, markPaymentFailed } from "./fulfil";
import { refundStripePayment } from "./provider";

export interface StripeWebhookOptions {
  stripe: Stripe;
  webhookSecret: string;
  db: Database;
  now: () => Date;
  onFulfilled?: () => void;
}

/**
 * POST /api/payments/webhook: Stripe's events, verified against the raw
 * body's signature. A purchase is fulfilled from `payment_intent.succeeded`
 * only — never from a client's word — and only when Stripe's amount and
 * metadata match the purchase we created. A boost for a student shown to no
 * one is refunded instead; if the refund fails the event is answered 500, so
 * Stripe sends it again and the refund is asked for again.
 */
export async function registerStripeWebhook(app: FastifyInstance, opts: StripeWebhookOptions) {
  await app.register(async (scope) => {
    // The signature covers the exact bytes: keep them, parse nothing.
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    scope.post("/api/payments/webhook", async (request, reply) => {
      const signature = request.headers["stripe-signature"];
      let event: Stripe.Event;
      try {
        if (typeof signature !== "string" || !Buffer.isBuffer(request.body)) throw new Error("unsigned");
        event = opts.stripe.webhooks.constructEvent(request.body, signature, opts.webhookSecret);
      } catch {
        return reply.code(400).send(httpErrorBody(400, "Invalid webhook signature"));
      }
      if (event.type === "payment_intent.succeeded") {
        const intent = event.data.object;
        const [purchase] = await opts.db.select().from(purchases).where(eq(purchases.providerPaymentId, intent.id));
        if (!purchase) {
          request.log.warn({ intent: intent.id }, "payment for an unknown purchase");
        } else if (
          intent.amount_received !== purchase.amountCents ||
          intent.currency !== purchase.currency ||
          intent.metadata?.purchaseId !== purchase.id
        ) {
          request.log.error({ intent: intent.id }, "payment does not match its purchase; not fulfilled");
        } else {
          const outcome = await fulfilPayment(opts.db, intent.id, opts.now());
          if (outcome === "fulfilled") opts.onFulfilled?.();
          if (outcome === "refund-due") {
            try {
              await refundStripePayment(opts.stripe, intent.id, purchase.id);
            } catch (error) {
              request.log.error({ intent: intent.id, err: error }, "refunding a boost nobody would see failed");
              return reply.code(500).send(httpErrorBody(500, "Refund failed; send the event again"));
            }
          }
        }
      } else if (event.type === "payment_intent.payment_failed") {
        await markPaymentFailed(opts.db, event.data.object.id);
      }
      return reply.send({ received: true });
    });
  });
}

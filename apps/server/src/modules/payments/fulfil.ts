import { findProduct } from "@quad/contracts";
import type { Database } from "@quad/db";
import { paymentFulfilments, purchases, users } from "@quad/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { shownWhere } from "../schools/membership";
import { product } from "../../metrics/registry";

/** "refund-due": a boost for a student shown to no one, not applied; the caller has the provider refund it (again, if asked again). */
export type FulfilOutcome = "fulfilled" | "already-fulfilled" | "refund-due" | "unknown-payment";

/**
 * The one code path that gives a student what they paid for, for both
 * providers. Exactly once per payment: the payment_fulfilments primary key
 * admits one row per provider payment id, and the effect is applied in the
 * same transaction only when this call inserted it. Replayed webhooks,
 * double confirmations and races between them change nothing further.
 * A boost is applied only to a student who is shown now (the payment may
 * have been started before a pause, a hold or a change of school): otherwise
 * the purchase is marked refunded and nothing else changes.
 */
export async function fulfilPayment(db: Database, providerPaymentId: string, now: Date): Promise<FulfilOutcome> {
  const outcome = await db.transaction(async (tx): Promise<FulfilOutcome> => {
    const [purchase] = await tx.select().from(purchases).where(eq(purchases.providerPaymentId, providerPaymentId));
    if (!purchase) return "unknown-payment";
    const [claimed] = await tx
      .insert(paymentFulfilments)
      .values({ providerPaymentId, purchaseId: purchase.id, fulfilledAt: now })
      .onConflictDoNothing()
      .returning();
    if (!claimed) return purchase.status === "refunded" ? "refund-due" : "already-fulfilled";

    const product = findProduct(purchase.productId);
    if (purchase.userId && product?.kind === "unlock") {
      await tx
        .update(users)
        .set({ remainingUnlocks: sql`${users.remainingUnlocks} + ${product.unlocks}` })
        .where(eq(users.id, purchase.userId));
    } else if (purchase.userId && product?.kind === "boost") {
      // A boost extends from whichever is later: now, or the end of the current boost.
      const [boosted] = await tx
        .update(users)
        .set({
          boostEndsAt: sql`greatest(coalesce(${users.boostEndsAt}, ${now.toISOString()}::timestamptz), ${now.toISOString()}::timestamptz) + make_interval(days => ${product.durationDays})`,
        })
        .where(and(eq(users.id, purchase.userId), shownWhere()))
        .returning({ id: users.id });
      if (!boosted) {
        await tx.update(purchases).set({ status: "refunded" }).where(eq(purchases.id, purchase.id));
        return "refund-due";
      }
    }
    await tx
      .update(purchases)
      .set({ status: "succeeded", fulfilledAt: now })
      .where(and(eq(purchases.id, purchase.id)));
    return "fulfilled";
  });
  if (outcome === "fulfilled") product.paymentsFulfilled.inc();
  return outcome;
}

/** A failure never undoes a success that arrived first (events can come out of order). */
export async function markPaymentFailed(db: Database, providerPaymentId: string): Promise<void> {
  await db
    .update(purchases)
    .set({ status: "failed" })
    .where(and(eq(purchases.providerPaymentId, providerPaymentId), eq(purchases.status, "pending")));
}

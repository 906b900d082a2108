import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";
import { paymentProviderEnum, purchaseKindEnum, purchaseStatusEnum } from "./enums";
import { users } from "./users";

/**
 * Payment records. user_id is set null when the account is deleted: the
 * purchase itself is kept (bookkeeping law) without the profile.
 */
export const purchases = pgTable(
  "purchases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    productId: text("product_id").notNull(),
    kind: purchaseKindEnum("kind").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    provider: paymentProviderEnum("provider").notNull(),
    providerPaymentId: text("provider_payment_id").notNull().unique(),
    clientSecret: text("client_secret"),
    status: purchaseStatusEnum("status").notNull().default("pending"),
    createdAt: createdAt(),
    fulfilledAt: timestamptz("fulfilled_at"),
  },
  (t) => [
    check("purchases_amount_positive", sql`${t.amountCents} > 0`),
    index("purchases_user_created_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
    // The local provider's confirm call identifies the purchase by its client secret.
    uniqueIndex("purchases_client_secret_idx").on(t.clientSecret),
  ],
);

/**
 * Exactly-once fulfilment: `insert ... on conflict do nothing returning`, and
 * apply the effect (credits, boost) in the same transaction only when a row
 * came back. A replayed webhook or a double confirmation then changes nothing.
 */
export const paymentFulfilments = pgTable("payment_fulfilments", {
  providerPaymentId: text("provider_payment_id").primaryKey(),
  purchaseId: uuid("purchase_id")
    .notNull()
    .unique()
    .references(() => purchases.id),
  fulfilledAt: timestamptz("fulfilled_at").notNull().defaultNow(),
});

/**
 * A student's one flash sale (docs/product.md "Prices",
 * docs/decisions/0006-flash-sale-with-a-real-end.md): it starts the first
 * time the sale is offered to them and ends at ends_at for good; after that
 * the one-unlock package costs its original price. One row per student,
 * removed with the account.
 */
export const flashSaleOffers = pgTable(
  "flash_sale_offers",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    startedAt: timestamptz("started_at").notNull(),
    endsAt: timestamptz("ends_at").notNull(),
  },
  (t) => [check("flash_sale_offers_ends_after_start", sql`${t.endsAt} > ${t.startedAt}`)],
);

export type Purchase = typeof purchases.$inferSelect;
export type NewPurchase = typeof purchases.$inferInsert;
export type PaymentFulfilment = typeof paymentFulfilments.$inferSelect;
export type NewPaymentFulfilment = typeof paymentFulfilments.$inferInsert;
export type FlashSaleOffer = typeof flashSaleOffers.$inferSelect;

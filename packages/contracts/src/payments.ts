import { z } from "zod";
import { BOOST_OPTIONS, ProductIdSchema, UNLOCK_PACKAGES } from "./products";
import { Int4Count, IsoDateTime } from "./common";
import { type EndpointDef, route } from "./endpoint";

export const UnlockPackage = z.object({
  id: z.string(),
  unlocks: Int4Count.positive(),
  priceCents: Int4Count.positive(),
  originalPriceCents: Int4Count.positive().optional(),
  flashSale: z.boolean().optional(),
});
export type UnlockPackage = z.infer<typeof UnlockPackage>;

export const BoostOption = z.object({
  id: z.string(),
  durationDays: Int4Count.positive(),
  priceCents: Int4Count.positive(),
  label: z.string(),
});
export type BoostOption = z.infer<typeof BoostOption>;

// The catalogue must satisfy its own entity schemas.
UNLOCK_PACKAGES satisfies readonly UnlockPackage[];
BOOST_OPTIONS satisfies readonly BoostOption[];

export const PAYMENT_KINDS = ["unlock", "boost"] as const;

/**
 * A boost makes a student drawn more often, so it is sold only to a student
 * who is shown: a proved school e-mail, not paused, not held for review.
 * Answered (403) when a boost is bought otherwise, and when a payment made
 * before the student stopped being shown arrives: that boost is not applied
 * and the payment is refunded (decision 0016).
 */
export const BOOST_MESSAGES = {
  notMember: "Verify your school e-mail before buying a boost: until then nobody sees your profile.",
  paused: "Your profile is paused, so nobody sees it. Resume it in Settings before buying a boost.",
  held: "Your profile is hidden while it is being reviewed, so a boost can't be bought now.",
  refunded: "Your profile isn't shown to anyone right now, so this boost wasn't applied and your payment was refunded.",
} as const;

/** What a purchase can be: "refunded" is a boost paid for while its student was shown to no one. */
export const PURCHASE_STATUSES = ["pending", "succeeded", "failed", "refunded"] as const;

/** The client names a product; the price is the server's. Extra fields are refused. */
export const CreatePaymentIntentInput = z.object({ productId: ProductIdSchema }).strict();
/** The amount is what the server will charge: the client shows it, never sets it. */
export const CreatePaymentIntentResult = z.object({ clientSecret: z.string(), amountCents: Int4Count.positive() });

/**
 * The student's flash sale on the one-unlock package: its prices and its
 * real end. Asking for it starts it the first time (the sale is "offered").
 */
export const FlashSaleOffer = z.object({
  productId: z.string(),
  priceCents: Int4Count.positive(),
  originalPriceCents: Int4Count.positive(),
  endsAt: IsoDateTime,
  active: z.boolean(),
});
export type FlashSaleOffer = z.infer<typeof FlashSaleOffer>;

export const LocalConfirmInput = z
  .object({
    clientSecret: z.string().min(1).max(200),
    cardNumber: z.string().min(1).max(32),
  })
  .strict();
export const LocalConfirmResult = z.object({ status: z.literal("succeeded"), productId: z.string() });

export const PurchaseRecord = z.object({
  id: z.string(),
  productId: z.string(),
  kind: z.enum(PAYMENT_KINDS),
  amountCents: Int4Count,
  currency: z.string(),
  status: z.enum(PURCHASE_STATUSES),
  createdAt: IsoDateTime,
  fulfilledAt: IsoDateTime.nullable(),
});
export const PaymentHistory = z.object({ purchases: z.array(PurchaseRecord) });

/** The payments procedures' rows of the endpoint table (merged in routes.ts). */
export const paymentsRoutes = {
  "payments.createPaymentIntent": route({
    writeLimit: "payments",
    method: "POST",
    path: "/payments/create-payment-intent",
    auth: true,
    tags: ["payments"],
    summary: "Start paying for a product",
    input: CreatePaymentIntentInput,
    output: CreatePaymentIntentResult,
  }),
  "payments.flashSale": route({
    writeLimit: true,
    method: "POST",
    path: "/payments/flash-sale",
    auth: true,
    tags: ["payments"],
    summary: "The caller's flash sale on one unlock, started the first time it is offered",
    output: FlashSaleOffer,
  }),
  "payments.localConfirm": route({
    writeLimit: "payments",
    method: "POST",
    path: "/payments/local/confirm",
    auth: true,
    tags: ["payments"],
    summary: "Confirm a payment with a test card (local provider)",
    input: LocalConfirmInput,
    output: LocalConfirmResult,
  }),
  "payments.history": route({
    method: "GET",
    path: "/payments/history",
    auth: true,
    tags: ["payments"],
    summary: "The student's own purchases",
    output: PaymentHistory,
  }),
} as const satisfies Record<`payments.${string}`, EndpointDef>;

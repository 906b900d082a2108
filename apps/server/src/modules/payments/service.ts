import {
  BOOST_MESSAGES,
  ERROR_MESSAGES,
  FLASH_SALE_PACKAGE_ID,
  findProduct,
  priceFor,
  type ProductId,
} from "@quad/contracts";
import type { Database } from "@quad/db";
import { purchases } from "@quad/db/schema";
import { randomUUID } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { AppError } from "../../errors";
import type { CandidatePool } from "../rounds/candidate-pool";
import { eligibilityChanged } from "../rounds/eligibility";
import { userIdByPhone } from "../inbox/received";
import { requireShownForBoost } from "./boost-eligibility";
import { flashSaleActive } from "./flash-sale";
import { fulfilPayment } from "./fulfil";
import type { PaymentProvider } from "./provider";

export interface PaymentDeps {
  db: Database;
  payments: PaymentProvider;
  now: () => Date;
  candidatePool: CandidatePool;
}

export const PAYMENT_MESSAGES = {
  unknownProduct: "Unknown product",
  notFound: "Payment not found",
  declined: ERROR_MESSAGES.cardDeclined,
  invalidCard: "Your card number is invalid.",
  localOnly: "Test-card payments are not enabled.",
} as const;

/** The local provider's test cards, as Stripe's test mode knows them. */
const TEST_CARD_SUCCESS = "4242424242424242";
const TEST_CARD_DECLINED = "4000000000000002";

/**
 * Starts paying for a product at the catalogue's price (the flash-sale
 * package at its sale price only while the student's sale is on), whatever
 * the client thinks it costs. A boost only for a student who is shown.
 */
export async function createPaymentIntent(
  deps: PaymentDeps,
  phone: string,
  productId: ProductId,
): Promise<{ clientSecret: string; amountCents: number }> {
  const product = findProduct(productId);
  if (!product) throw new AppError("BAD_REQUEST", PAYMENT_MESSAGES.unknownProduct);
  const userId = await userIdByPhone(deps.db, phone);
  if (product.kind === "boost") await requireShownForBoost(deps.db, userId);
  const onSale = product.id === FLASH_SALE_PACKAGE_ID && (await flashSaleActive(deps.db, userId, deps.now()));
  const amountCents = priceFor(product.id, onSale);
  const purchaseId = randomUUID();
  const intent = await deps.payments.createIntent({
    purchaseId,
    userId,
    productId: product.id,
    amountCents,
    currency: "usd",
  });
  await deps.db.insert(purchases).values({
    id: purchaseId,
    userId,
    productId: product.id,
    kind: product.kind,
    amountCents,
    currency: "usd",
    provider: deps.payments.name,
    providerPaymentId: intent.providerPaymentId,
    clientSecret: intent.clientSecret,
    createdAt: deps.now(),
  });
  return { clientSecret: intent.clientSecret, amountCents };
}

/**
 * The local provider's confirmation: a test card pays, the decline card is
 * refused like a real decline. Fulfilment goes through the same exactly-once
 * path as Stripe's webhook, so confirming twice gives once. A boost for a
 * student no longer shown is not applied: test cards move no money, so the
 * purchase marked refunded is the whole refund, and the student is told.
 */
export async function confirmLocalPayment(
  deps: PaymentDeps,
  phone: string,
  input: { clientSecret: string; cardNumber: string },
): Promise<{ status: "succeeded"; productId: string }> {
  if (deps.payments.name !== "local") throw new AppError("NOT_FOUND", PAYMENT_MESSAGES.localOnly);
  const userId = await userIdByPhone(deps.db, phone);
  const [purchase] = await deps.db
    .select()
    .from(purchases)
    .where(and(eq(purchases.clientSecret, input.clientSecret), eq(purchases.userId, userId)));
  if (!purchase || purchase.provider !== "local") throw new AppError("NOT_FOUND", PAYMENT_MESSAGES.notFound);
  const card = input.cardNumber.replace(/[\s-]/g, "");
  if (card === TEST_CARD_DECLINED) throw new AppError("PAYMENT_REQUIRED", PAYMENT_MESSAGES.declined);
  if (card !== TEST_CARD_SUCCESS) throw new AppError("BAD_REQUEST", PAYMENT_MESSAGES.invalidCard);
  const outcome = await fulfilPayment(deps.db, purchase.providerPaymentId, deps.now());
  if (outcome === "refund-due") throw new AppError("FORBIDDEN", BOOST_MESSAGES.refunded);
  // A boost changes how often the student is drawn.
  eligibilityChanged(deps.candidatePool);
  return { status: "succeeded", productId: purchase.productId };
}

export async function paymentHistory(db: Database, phone: string) {
  const userId = await userIdByPhone(db, phone);
  const rows = await db.select().from(purchases).where(eq(purchases.userId, userId)).orderBy(desc(purchases.createdAt));
  return {
    purchases: rows.map((row) => ({
      id: row.id,
      productId: row.productId,
      kind: row.kind,
      amountCents: row.amountCents,
      currency: row.currency,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      fulfilledAt: row.fulfilledAt?.toISOString() ?? null,
    })),
  };
}

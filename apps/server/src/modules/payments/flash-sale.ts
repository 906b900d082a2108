import { FLASH_SALE_HOURS, FLASH_SALE_PACKAGE_ID, priceFor, type FlashSaleOffer } from "@quad/contracts";
import type { Database } from "@quad/db";
import { flashSaleOffers } from "@quad/db/schema";
import { eq } from "drizzle-orm";

/**
 * Each student's one flash sale (docs/product.md "Prices",
 * docs/decisions/0006-flash-sale-with-a-real-end.md). It starts the first
 * time it is offered and ends at endsAt for good; the price charged follows
 * the same rule (contracts priceFor).
 */

function toOffer(endsAt: Date, now: Date): FlashSaleOffer {
  const active = now < endsAt;
  return {
    productId: FLASH_SALE_PACKAGE_ID,
    priceCents: priceFor(FLASH_SALE_PACKAGE_ID, active),
    originalPriceCents: priceFor(FLASH_SALE_PACKAGE_ID, false),
    endsAt: endsAt.toISOString(),
    active,
  };
}

/** The student's sale, started now if it never was (one row per student: concurrent calls agree). */
export async function offerFlashSale(db: Database, userId: string, now: Date): Promise<FlashSaleOffer> {
  const endsAt = new Date(now.getTime() + FLASH_SALE_HOURS * 3_600_000);
  const [started] = await db
    .insert(flashSaleOffers)
    .values({ userId, startedAt: now, endsAt })
    .onConflictDoNothing()
    .returning({ endsAt: flashSaleOffers.endsAt });
  if (started) return toOffer(started.endsAt, now);
  const [existing] = await db
    .select({ endsAt: flashSaleOffers.endsAt })
    .from(flashSaleOffers)
    .where(eq(flashSaleOffers.userId, userId));
  return toOffer(existing!.endsAt, now);
}

/** Whether the student's sale is on now; a sale never offered is not. */
export async function flashSaleActive(db: Database, userId: string, now: Date): Promise<boolean> {
  const [offer] = await db
    .select({ endsAt: flashSaleOffers.endsAt })
    .from(flashSaleOffers)
    .where(eq(flashSaleOffers.userId, userId));
  return offer !== undefined && now < offer.endsAt;
}

import { z } from "zod";

/**
 * The product catalogue (docs/product.md, docs/architecture.md). Prices are in cents and come
 * only from here: the server charges these amounts whatever a client sends.
 */

export const UNLOCK_PACKAGES = [
  { id: "unlock-1", unlocks: 1, priceCents: 99, originalPriceCents: 299, flashSale: true },
  { id: "unlock-3", unlocks: 3, priceCents: 799 },
  { id: "unlock-5", unlocks: 5, priceCents: 999 },
] as const;

export const BOOST_OPTIONS = [
  { id: "boost-1", durationDays: 1, priceCents: 499, label: "24 hours" },
  { id: "boost-3", durationDays: 3, priceCents: 899, label: "3 days" },
  { id: "boost-7", durationDays: 7, priceCents: 1299, label: "Superboost" },
] as const;

export type UnlockPackageId = (typeof UNLOCK_PACKAGES)[number]["id"];
export type BoostOptionId = (typeof BOOST_OPTIONS)[number]["id"];

export const UNLOCK_PACKAGE_IDS = UNLOCK_PACKAGES.map((p) => p.id) as [UnlockPackageId, ...UnlockPackageId[]];
export const BOOST_OPTION_IDS = BOOST_OPTIONS.map((b) => b.id) as [BoostOptionId, ...BoostOptionId[]];
export const PRODUCT_IDS = [...UNLOCK_PACKAGE_IDS, ...BOOST_OPTION_IDS] as [
  UnlockPackageId | BoostOptionId,
  ...(UnlockPackageId | BoostOptionId)[],
];
export type ProductId = UnlockPackageId | BoostOptionId;

export const ProductIdSchema = z.enum(PRODUCT_IDS, { error: "Unknown product" });

/** The one-unlock flash-sale package the vote-detail dialog offers (docs/product.md). */
export const FLASH_SALE_PACKAGE_ID: UnlockPackageId = "unlock-1";

/**
 * Each student's flash sale runs once, for this long from the first time it
 * is offered to them; afterwards the package costs its original price (the
 * one-off price the terms state). A sale that ends is a real end.
 */
export const FLASH_SALE_HOURS = 24;

/** What a product costs a student now: the flash-sale package is at its sale price only during their sale. */
export function priceFor(productId: ProductId, flashSaleActive: boolean): number {
  const pack = UNLOCK_PACKAGES.find((p) => p.id === productId);
  if (pack && "flashSale" in pack && !flashSaleActive) return pack.originalPriceCents;
  const product = findProduct(productId);
  if (!product) throw new Error(`Unknown product ${productId}`);
  return product.priceCents;
}

export type Product =
  | { kind: "unlock"; id: UnlockPackageId; unlocks: number; priceCents: number }
  | { kind: "boost"; id: BoostOptionId; durationDays: number; priceCents: number };

export function findProduct(id: string): Product | undefined {
  const pack = UNLOCK_PACKAGES.find((p) => p.id === id);
  if (pack) return { kind: "unlock", id: pack.id, unlocks: pack.unlocks, priceCents: pack.priceCents };
  const boost = BOOST_OPTIONS.find((b) => b.id === id);
  if (boost) return { kind: "boost", id: boost.id, durationDays: boost.durationDays, priceCents: boost.priceCents };
  return undefined;
}

/** Whole percent off, as the flash-sale dialog shows it (2.99 → 0.99 is 67% off). */
export function percentOff(priceCents: number, originalPriceCents: number): number {
  return Math.round((1 - priceCents / originalPriceCents) * 100);
}

export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

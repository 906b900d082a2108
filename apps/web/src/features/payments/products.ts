import { BOOST_OPTIONS, SCREEN_TEXT, UNLOCK_PACKAGES, type ProductId } from "@quad/contracts";

/** How a product reads in the checkout summary; prices always come from contracts. */
export interface ProductSummary {
  id: ProductId;
  kind: "unlock" | "boost";
  title: string;
  detail: string;
  priceCents: number;
  originalPriceCents?: number;
}

export function unlockCountLabel(unlocks: number): string {
  return `${unlocks} unlock${unlocks === 1 ? "" : "s"}`;
}

export function boostDurationLabel(durationDays: number): string {
  return durationDays === 1 ? "24 hours" : `${durationDays} days`;
}

export function summarizeProduct(id: ProductId): ProductSummary {
  const pack = UNLOCK_PACKAGES.find((p) => p.id === id);
  if (pack) {
    return {
      id,
      kind: "unlock",
      title: unlockCountLabel(pack.unlocks),
      detail: "Reveal who voted for you",
      priceCents: pack.priceCents,
      ...("originalPriceCents" in pack ? { originalPriceCents: pack.originalPriceCents } : {}),
    };
  }
  const boost = BOOST_OPTIONS.find((b) => b.id === id);
  if (!boost) throw new Error(`Unknown product ${id}`);
  const duration = boostDurationLabel(boost.durationDays);
  return {
    id,
    kind: "boost",
    title: boost.label === duration ? `Boost · ${duration}` : `${boost.label} · ${duration}`,
    detail: SCREEN_TEXT.boostTagline,
    priceCents: boost.priceCents,
  };
}

import { formatPrice, percentOff, UNLOCK_PACKAGES, type FlashSaleOffer, type UnlockPackageId } from "@quad/contracts";
import { useState } from "react";
import { Button, Modal } from "../../components";
import { useProfilePart } from "../users/use-profile";
import { useCheckout } from "./checkout";
import styles from "./dialogs.module.css";
import { PriceTag } from "./price-tag";
import { ProductOptions, type ProductOptionItem } from "./product-options";
import { unlockCountLabel } from "./products";
import { UNLOCK_REVEALS } from "./texts";
import { formatSaleEnd, useFlashSale } from "./use-flash-sale";

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five"];

/** What a package costs the student now: the server's offer prices the flash-sale package. */
function priceOf(id: UnlockPackageId, sale: FlashSaleOffer | undefined): number {
  return id === sale?.productId ? sale.priceCents : UNLOCK_PACKAGES.find((pack) => pack.id === id)!.priceCents;
}

/** The packages as the student can buy them now: the flash-sale package at its sale price only while their sale is on. */
function packageOptions(sale: FlashSaleOffer | undefined): ProductOptionItem<UnlockPackageId>[] {
  return UNLOCK_PACKAGES.map((pack) => {
    const onSale = pack.id === sale?.productId && sale.active;
    const priceCents = priceOf(pack.id, sale);
    const reveal = `Reveal ${NUMBER_WORDS[pack.unlocks] ?? pack.unlocks} voter${pack.unlocks === 1 ? "" : "s"}`;
    return {
      id: pack.id,
      title: unlockCountLabel(pack.unlocks),
      // Packs say what one unlock costs in them, so they compare at a glance.
      detail: pack.unlocks === 1 ? reveal : `${reveal} · ${formatPrice(Math.round(priceCents / pack.unlocks))} each`,
      badge: onSale
        ? `Flash sale · ${percentOff(sale.priceCents, sale.originalPriceCents)}% off · ${formatSaleEnd(sale.endsAt)}`
        : undefined,
      price: (
        <PriceTag
          priceCents={priceCents}
          originalPriceCents={onSale ? sale.originalPriceCents : undefined}
          showPercentOff={false}
          stacked
        />
      ),
    };
  });
}

export interface UnlockPackagesDialogProps {
  open: boolean;
  onClose: () => void;
}

/** "Buy Unlocks": the three unlock packages, then the card payment dialog. */
export function UnlockPackagesDialog({ open, onClose }: UnlockPackagesDialogProps) {
  const [picked, setPicked] = useState<UnlockPackageId | null>(null);
  const { pay, checkout } = useCheckout(open, onClose);
  const credits = useProfilePart((me) => me.remainingUnlocks) ?? 0;
  const sale = useFlashSale(open);
  const options = packageOptions(sale.data);
  // The 3-pack is the usual suggestion, but not over a sale the student is being shown (or may be about to be).
  const selected = picked ?? (sale.isPending || sale.data?.active ? null : "unlock-3");
  const price = selected ? priceOf(selected, sale.data) : null;

  return (
    <>
      <Modal
        open={open}
        onClose={onClose}
        title="Buy Unlocks"
        description={UNLOCK_REVEALS}
        footer={
          <Button size="lg" block disabled={!selected} onClick={() => selected && pay(selected)}>
            {price === null ? "Choose a package" : `Continue · ${formatPrice(price)}`}
          </Button>
        }
      >
        <div className={styles.stack}>
          <p className={styles.balance}>
            You have <strong>{unlockCountLabel(credits)}</strong> left.
          </p>
          <ProductOptions legend="Unlock packages" options={options} value={selected} onChange={setPicked} />
        </div>
      </Modal>
      {checkout}
    </>
  );
}

import { formatPrice, percentOff, UNLOCK_PACKAGES, type FlashSaleOffer, type UnlockPackageId } from "@quad/contracts";
import { useState } from "react";
import { Button, Modal } from "../../components";
import { useSessionStore } from "../../lib/session-store";
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
    return {
      id: pack.id,
      title: unlockCountLabel(pack.unlocks),
      detail: `Reveal ${NUMBER_WORDS[pack.unlocks] ?? pack.unlocks} voter${pack.unlocks === 1 ? "" : "s"}`,
      badge: onSale ? `Flash sale · ${percentOff(sale.priceCents, sale.originalPriceCents)}% off · ${formatSaleEnd(sale.endsAt)}` : undefined,
      price: <PriceTag priceCents={priceCents} originalPriceCents={onSale ? sale.originalPriceCents : undefined} showPercentOff={false} stacked />,
    };
  });
}

export interface UnlockPackagesDialogProps {
  open: boolean;
  onClose: () => void;
}

/** "Buy Unlocks": the three unlock packages, then the card payment dialog. */
export function UnlockPackagesDialog({ open, onClose }: UnlockPackagesDialogProps) {
  const [selected, setSelected] = useState<UnlockPackageId>("unlock-3");
  const { pay, checkout } = useCheckout(open, onClose);
  const credits = useSessionStore((state) => state.user?.remainingUnlocks ?? 0);
  const sale = useFlashSale(open);
  const options = packageOptions(sale.data);
  const price = priceOf(selected, sale.data);

  return (
    <>
      <Modal
        open={open}
        onClose={onClose}
        title="Buy Unlocks"
        description={UNLOCK_REVEALS}
        footer={
          <Button size="lg" block onClick={() => pay(selected)}>
            Continue · {formatPrice(price)}
          </Button>
        }
      >
        <div className={styles.stack}>
          <p className={styles.balance}>
            You have <strong>{unlockCountLabel(credits)}</strong> left.
          </p>
          <ProductOptions legend="Unlock packages" options={options} value={selected} onChange={setSelected} />
        </div>
      </Modal>
      {checkout}
    </>
  );
}

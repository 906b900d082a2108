import { BOOST_OPTIONS, formatPrice, SCREEN_TEXT, type BoostOptionId } from "@quad/contracts";
import { useState } from "react";
import { Button, Icon, Modal } from "../../components";
import { useProfilePart } from "../users/use-profile";
import { useBoostRemaining } from "./boost-remaining";
import { useCheckout } from "./checkout";
import styles from "./dialogs.module.css";
import { PriceTag } from "./price-tag";
import { ProductOptions, type ProductOptionItem } from "./product-options";
import { boostDurationLabel } from "./products";

const OPTIONS: ProductOptionItem<BoostOptionId>[] = BOOST_OPTIONS.map((boost) => {
  const duration = boostDurationLabel(boost.durationDays);
  const isSuper = boost.label !== duration;
  return {
    id: boost.id,
    title: boost.label,
    detail: isSuper ? `${boost.durationDays} days of 5x visibility` : `5x visibility for ${duration}`,
    badge: isSuper ? "Best value" : undefined,
    price: <PriceTag priceCents={boost.priceCents} />,
  };
});

export interface BoostDialogProps {
  open: boolean;
  onClose: () => void;
}

/** The boost options (docs/product.md), then the card payment dialog. A new boost extends a running one. */
export function BoostDialog({ open, onClose }: BoostDialogProps) {
  // Nothing preselected: a boost is a purchase the student chooses.
  const [selected, setSelected] = useState<BoostOptionId | null>(null);
  const { pay, checkout } = useCheckout(open, onClose);
  const boostEnd = useProfilePart((me) => me.boostEndTime) ?? null;
  const remaining = useBoostRemaining(boostEnd);
  const price = BOOST_OPTIONS.find((boost) => boost.id === selected)?.priceCents ?? null;

  return (
    <>
      <Modal
        open={open}
        onClose={onClose}
        title="Boost your profile"
        footer={
          <Button
            size="lg"
            block
            icon={<Icon name="rocket" size={20} />}
            disabled={!selected}
            onClick={() => selected && pay(selected)}
          >
            {price === null ? "Boost" : `Boost · ${formatPrice(price)}`}
          </Button>
        }
      >
        <div className={styles.stack}>
          <div className={styles.boostHero}>
            <span className={styles.heroIcon} aria-hidden="true">
              <Icon name="rocket" size={30} />
            </span>
            <p className={styles.tagline}>{SCREEN_TEXT.boostTagline}</p>
            <p className={styles.heroText}>Boosted profiles show up in classmates' rounds 5 times as often.</p>
          </div>
          {remaining && (
            <p className={styles.balance}>
              Your boost is on: <strong>{remaining}</strong> left. A new boost adds to it.
            </p>
          )}
          <ProductOptions legend="Boost options" options={OPTIONS} value={selected} onChange={setSelected} />
        </div>
      </Modal>
      {checkout}
    </>
  );
}

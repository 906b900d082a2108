import { FLASH_SALE_PACKAGE_ID, formatPrice, percentOff, UNLOCK_PACKAGES } from "@quad/contracts";
import { useEffect, useState } from "react";
import { Button, Icon, Modal } from "../../components";
import { CheckoutDialog, preloadCheckout } from "./checkout";
import styles from "./dialogs.module.css";
import { PriceTag } from "./price-tag";

const FLASH_SALE = UNLOCK_PACKAGES.find((pack) => pack.id === FLASH_SALE_PACKAGE_ID)!;
const ORIGINAL_CENTS = "originalPriceCents" in FLASH_SALE ? FLASH_SALE.originalPriceCents : undefined;

export interface FlashSaleDialogProps {
  open: boolean;
  onClose: () => void;
  /** The one-unlock package was paid for and the profile reloaded. */
  onPaid: () => void;
}

/**
 * Shown instead of "Use Unlock Credit?" when no credit is left (spec §4):
 * only the one-unlock flash-sale package, with its percent off.
 */
export function FlashSaleDialog({ open, onClose, onPaid }: FlashSaleDialogProps) {
  const [paying, setPaying] = useState(false);

  useEffect(() => {
    if (open) preloadCheckout();
  }, [open]);

  return (
    <>
      <Modal
        open={open}
        onClose={onClose}
        size="sm"
        title="Flash sale"
        description="You're out of unlocks. Reveal who sent this vote for less."
        footer={
          <>
            <Button size="lg" block icon={<Icon name="unlock" size={20} />} onClick={() => setPaying(true)}>
              Unlock for {formatPrice(FLASH_SALE.priceCents)}
            </Button>
            <Button variant="ghost" block onClick={onClose}>
              Not now
            </Button>
          </>
        }
      >
        <div className={styles.hero}>
          <span className={styles.heroIcon} aria-hidden="true">
            <Icon name="zap" size={30} />
          </span>
          {ORIGINAL_CENTS !== undefined && (
            <span className={styles.ribbon}>{percentOff(FLASH_SALE.priceCents, ORIGINAL_CENTS)}% off</span>
          )}
          <PriceTag priceCents={FLASH_SALE.priceCents} originalPriceCents={ORIGINAL_CENTS} size="lg" showPercentOff={false} />
          <p className={styles.heroText}>1 unlock · their name, photo, class year, emojis and Instagram handle</p>
        </div>
      </Modal>
      {paying && (
        <CheckoutDialog
          productId={FLASH_SALE.id}
          onClose={() => setPaying(false)}
          onPaid={() => {
            setPaying(false);
            onPaid();
          }}
        />
      )}
    </>
  );
}

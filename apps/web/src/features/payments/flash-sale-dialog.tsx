import { FLASH_SALE_PACKAGE_ID, formatPrice, percentOff, type FlashSaleOffer } from "@quad/contracts";
import { Button, Icon, Modal, Spinner } from "../../components";
import { useBoostRemaining } from "./boost-remaining";
import { useCheckout } from "./checkout";
import styles from "./dialogs.module.css";
import { PriceTag } from "./price-tag";
import { formatSaleEnd, useFlashSale } from "./use-flash-sale";

export interface FlashSaleDialogProps {
  open: boolean;
  onClose: () => void;
  /** The one-unlock package was paid for and the profile reloaded. */
  onPaid: () => void;
}

/**
 * Shown instead of "Use Unlock Credit?" when no credit is left (docs/product.md):
 * only the one-unlock package, at the flash-sale price with its percent off
 * and the sale's real end while the student's sale is on, at its regular
 * price once it has ended.
 */
export function FlashSaleDialog({ open, onClose, onPaid }: FlashSaleDialogProps) {
  const { pay, checkout } = useCheckout(open, onPaid);
  const sale = useFlashSale(open);
  const offer = sale.data;

  return (
    <>
      <Modal
        open={open}
        onClose={onClose}
        size="sm"
        title={offer && !offer.active ? "Unlock this vote" : "Flash sale"}
        description={
          offer && !offer.active
            ? "You're out of unlocks. Reveal who sent this vote."
            : "You're out of unlocks. Reveal who sent this vote for less."
        }
        footer={
          <>
            <Button
              size="lg"
              block
              icon={<Icon name="unlock" size={20} />}
              onClick={() => pay(FLASH_SALE_PACKAGE_ID)}
              disabled={!offer}
            >
              {offer ? `Unlock for ${formatPrice(offer.priceCents)}` : "Unlock"}
            </Button>
            <Button variant="ghost" block onClick={onClose}>
              Not now
            </Button>
          </>
        }
      >
        <div className={styles.hero}>
          <span className={styles.heroIcon} aria-hidden="true">
            <Icon name={offer?.active === false ? "unlock" : "zap"} size={30} />
          </span>
          {offer ? (
            <SaleDetails offer={offer} />
          ) : sale.isError ? (
            <p className={styles.heroText}>Couldn't load the price. Close and try again.</p>
          ) : (
            <Spinner label="Loading the price" />
          )}
          <p className={styles.heroText}>1 unlock · their name, photo, class year, emojis and Instagram handle</p>
        </div>
      </Modal>
      {checkout}
    </>
  );
}

function SaleDetails({ offer }: { offer: FlashSaleOffer }) {
  const remaining = useBoostRemaining(offer.active ? offer.endsAt : null);
  if (!offer.active) return <PriceTag priceCents={offer.priceCents} size="lg" showPercentOff={false} />;
  return (
    <>
      <span className={styles.ribbon}>{percentOff(offer.priceCents, offer.originalPriceCents)}% off</span>
      <PriceTag
        priceCents={offer.priceCents}
        originalPriceCents={offer.originalPriceCents}
        size="lg"
        showPercentOff={false}
      />
      <p className={styles.saleEnd}>
        <Icon name="clock" size={16} />
        {remaining ? `${remaining} left · ${formatSaleEnd(offer.endsAt)}` : "The sale has ended"}
      </p>
    </>
  );
}

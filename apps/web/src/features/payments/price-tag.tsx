import { formatPrice, percentOff } from "@quad/contracts";
import styles from "./price-tag.module.css";

export interface PriceTagProps {
  priceCents: number;
  /** A higher earlier price, shown struck through with the percent off. */
  originalPriceCents?: number;
  size?: "md" | "lg";
  showPercentOff?: boolean;
  /** The struck-through price under the current one (narrow columns). */
  stacked?: boolean;
}

/** "$0.99 ~~$2.99~~ 67% off": screen readers hear "$0.99, was $2.99, 67% off". */
export function PriceTag({
  priceCents,
  originalPriceCents,
  size = "md",
  showPercentOff = true,
  stacked = false,
}: PriceTagProps) {
  return (
    <span className={`${styles.price} ${styles[size]} ${stacked ? styles.stacked : ""}`}>
      <span className={styles.now}>{formatPrice(priceCents)}</span>
      {originalPriceCents !== undefined && (
        <>
          <span className="visually-hidden">, was </span>
          <s className={styles.was}>{formatPrice(originalPriceCents)}</s>
          {showPercentOff && (
            <>
              <span className="visually-hidden">, </span>
              <span className={styles.off}>{percentOff(priceCents, originalPriceCents)}% off</span>
            </>
          )}
        </>
      )}
    </span>
  );
}

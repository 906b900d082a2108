import { Icon } from "../../components";
import { useProfilePart } from "../users/use-profile";
import { useBoostRemaining } from "../payments";
import styles from "./boost-status.module.css";

/**
 * The remaining-boost display (docs/product.md): "Xd Yh", "Xh Ym" or "Xm", refreshed
 * every minute; nothing without a running boost.
 */
export function BoostStatus({ className }: { className?: string }) {
  const boostEnd = useProfilePart((me) => me.boostEndTime) ?? null;
  const remaining = useBoostRemaining(boostEnd);
  if (!remaining) return null;
  return (
    <p className={`${styles.status} ${className ?? ""}`}>
      <span className={styles.icon} aria-hidden="true">
        <Icon name="rocket" size={16} />
      </span>
      <span>
        Boosted · <strong className={styles.time}>{remaining}</strong> left
      </span>
    </p>
  );
}

import { Icon } from "../../components/icon";
import { SAFETY_TEXT } from "./texts";
import styles from "./card-more-button.module.css";

export interface CardMoreButtonProps {
  /** Whose card it is: names the button for screen readers. */
  name: string;
  onClick: () => void;
  disabled?: boolean;
  className?: string;
}

/**
 * The small ⋯ button in a card's photo corner that opens block and report.
 * Free of the data layer, so the voting card can carry it cheaply.
 */
export function CardMoreButton({ name, onClick, disabled = false, className }: CardMoreButtonProps) {
  return (
    <button
      type="button"
      className={`${styles.more} ${className ?? ""}`}
      onClick={onClick}
      disabled={disabled}
      aria-haspopup="dialog"
      aria-label={SAFETY_TEXT.moreOptions(name)}
    >
      <Icon name="more" size={20} />
    </button>
  );
}

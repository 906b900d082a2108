import { useId, type ReactNode } from "react";
import styles from "./product-options.module.css";

export interface ProductOptionItem<Id extends string> {
  id: Id;
  title: ReactNode;
  detail?: ReactNode;
  price: ReactNode;
  /** A small ribbon such as "Best value". */
  badge?: string;
}

export interface ProductOptionsProps<Id extends string> {
  legend: string;
  options: readonly ProductOptionItem<Id>[];
  /** The chosen package; null while none is (nothing preselected). */
  value: Id | null;
  onChange: (id: Id) => void;
}

/** A radio group drawn as tappable cards: arrow keys move, the whole card is the target. */
export function ProductOptions<Id extends string>({ legend, options, value, onChange }: ProductOptionsProps<Id>) {
  const name = useId();
  return (
    <fieldset className={styles.group}>
      <legend className="visually-hidden">{legend}</legend>
      {options.map((option) => {
        const checked = option.id === value;
        return (
          <label
            key={option.id}
            className={`${styles.option} ${checked ? styles.checked : ""}`}
            data-product={option.id}
          >
            <input
              type="radio"
              name={name}
              value={option.id}
              checked={checked}
              onChange={() => onChange(option.id)}
              className={styles.radio}
            />
            <span className={styles.mark} aria-hidden="true" />
            <span className={styles.text}>
              <span className={styles.title}>{option.title}</span>
              {option.detail && <span className={styles.detail}>{option.detail}</span>}
              {/* In the card's flow, so at any width it wraps inside the card instead of covering another. */}
              {option.badge && (
                <span className={styles.badge} data-badge="">
                  {option.badge}
                </span>
              )}
            </span>
            <span className={styles.price}>{option.price}</span>
          </label>
        );
      })}
    </fieldset>
  );
}

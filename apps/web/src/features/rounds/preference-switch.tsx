import { useId } from "react";
import type { Gender } from "@quad/contracts";
import styles from "./preference-switch.module.css";

/** Guys = male, Girls = female (docs/product.md). */
export const PREFERENCE_OPTIONS: readonly { gender: Gender; label: string }[] = [
  { gender: "male", label: "Guys" },
  { gender: "female", label: "Girls" },
];

export interface PreferenceSwitchProps {
  /** The gender shown now; null when nothing is chosen yet. */
  value: Gender | null;
  onChange: (gender: Gender) => void;
  /**
   * A choice is saving: taps wait, but nothing is disabled, since a disabled
   * radio would drop the student's focus to the page.
   */
  busy?: boolean;
  /** Read by screen readers as the group's name. */
  label?: string;
}

/**
 * The Guys/Girls switch: a pair of native radio buttons styled as a
 * segmented control, so arrow keys and screen readers work as expected.
 */
export function PreferenceSwitch({ value, onChange, busy = false, label = "Show me" }: PreferenceSwitchProps) {
  const name = useId();
  return (
    <fieldset className={styles.switch} aria-busy={busy || undefined}>
      <legend className="visually-hidden">{label}</legend>
      {PREFERENCE_OPTIONS.map(({ gender, label: optionLabel }) => (
        <label key={gender} className={`${styles.option} ${value === gender ? styles.selected : ""}`}>
          <input
            type="radio"
            className={styles.input}
            name={name}
            value={gender}
            checked={value === gender}
            onChange={() => !busy && onChange(gender)}
          />
          <span className={styles.text}>{optionLabel}</span>
        </label>
      ))}
    </fieldset>
  );
}

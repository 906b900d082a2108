import { useId, type ReactNode } from "react";
import styles from "./switch.module.css";

export interface SwitchProps {
  /** The row's title, also the switch's accessible name. */
  label: string;
  /** One or two lines under the title saying what the switch does. */
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Shows that a change is being saved. */
  busy?: boolean;
}

/** An on/off setting row: a native checkbox with role="switch", the whole row is the tap target. */
export function Switch({ label, description, checked, onChange, disabled = false, busy = false }: SwitchProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const descriptionId = `${id}-description`;
  return (
    <label className={`${styles.row} ${disabled ? styles.disabled : ""}`} htmlFor={id}>
      <span className={styles.text}>
        <span id={labelId} className={styles.label}>
          {label}
        </span>
        {description && (
          <span id={descriptionId} className={styles.description}>
            {description}
          </span>
        )}
      </span>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className={styles.input}
        checked={checked}
        disabled={disabled || busy}
        aria-busy={busy || undefined}
        // The row's label wraps the description too; the name is the title alone.
        aria-labelledby={labelId}
        aria-describedby={description ? descriptionId : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className={styles.track} aria-hidden="true">
        <span className={styles.thumb} />
      </span>
    </label>
  );
}

import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import { Icon } from "../../../components";
import styles from "./fields.module.css";

function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}

/** A field's message, announced as soon as it appears. */
export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className={styles.error} role="alert">
      <span className={styles.errorIcon}>
        <Icon name="alert" size={16} />
      </span>
      {children}
    </p>
  );
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "prefix"> {
  /** The visible label, also the input's accessible name. */
  label: string;
  error?: string | null;
  hint?: ReactNode;
  /** Fixed text before the input (e.g. the +1 country code). */
  prefix?: ReactNode;
  variant?: "text" | "code";
  ref?: Ref<HTMLInputElement>;
}

/** A labelled text input with its hint or error tied to it for screen readers. */
export function TextField({
  label,
  error,
  hint,
  prefix,
  variant = "text",
  id,
  className,
  ref,
  ...input
}: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = cx(Boolean(hint) && !error && hintId, Boolean(error) && errorId) || undefined;

  return (
    <div className={cx(styles.field, className)}>
      <label htmlFor={inputId} className={styles.label}>
        {label}
      </label>
      <div className={cx(styles.control, error && styles.invalid, input.disabled && styles.disabled)}>
        {prefix && (
          <span className={styles.prefix} aria-hidden="true">
            {prefix}
          </span>
        )}
        <input
          {...input}
          ref={ref}
          id={inputId}
          className={cx(styles.input, variant === "code" && styles.code)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      </div>
      {hint && !error && (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      )}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "children"> {
  children: ReactNode;
}

/** A checkbox whose whole row (box and text) is the label and the tap target. */
export function Checkbox({ children, className, ...input }: CheckboxProps) {
  return (
    <label className={cx(styles.check, className)}>
      <input {...input} type="checkbox" className={styles.checkInput} />
      <span className={styles.box} aria-hidden="true">
        <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3.5">
          <path d="m5 12.5 4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </span>
      <span className={styles.checkText}>{children}</span>
    </label>
  );
}

export { styles as fieldStyles };

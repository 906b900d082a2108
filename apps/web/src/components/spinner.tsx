import styles from "./spinner.module.css";

export interface SpinnerProps {
  size?: "sm" | "md" | "lg";
  /** Read by screen readers; pass null when a surrounding element already says it. */
  label?: string | null;
  /** "current" follows the text colour (e.g. inside a button). */
  tone?: "brand" | "current";
}

export function Spinner({ size = "md", label = "Loading", tone = "brand" }: SpinnerProps) {
  return (
    <span
      className={`${styles.spinner} ${styles[size]} ${tone === "current" ? styles.current : ""}`}
      role={label ? "status" : undefined}
      aria-label={label ?? undefined}
      aria-hidden={label ? undefined : true}
    />
  );
}

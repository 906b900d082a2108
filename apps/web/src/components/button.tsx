import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Link, type LinkProps } from "react-router";
import styles from "./button.module.css";
import { Spinner } from "./spinner";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";
export type ButtonSize = "md" | "lg";

interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Stretch to the container's width (the usual main action on a phone). */
  block?: boolean;
}

export function buttonClassName(
  { variant = "primary", size = "md", block = false }: ButtonLook,
  extra?: string,
): string {
  return [styles.button, styles[variant], styles[size], block ? styles.block : "", extra ?? ""]
    .filter(Boolean)
    .join(" ");
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, ButtonLook {
  /** Shows a spinner, keeps the label for width, and blocks clicks. */
  loading?: boolean;
  icon?: ReactNode;
}

export function Button({
  variant,
  size,
  block,
  loading = false,
  icon,
  className,
  disabled,
  type = "button",
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={buttonClassName({ variant, size, block }, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading ? <Spinner size="sm" tone="current" label={null} /> : icon}
      <span className={styles.label}>{children}</span>
    </button>
  );
}

export interface ButtonLinkProps extends LinkProps, ButtonLook {
  icon?: ReactNode;
}

/** A router link that looks like a Button (navigation, not an action). */
export function ButtonLink({ variant, size, block, icon, className, children, ...rest }: ButtonLinkProps) {
  return (
    <Link {...rest} className={buttonClassName({ variant, size, block }, className)}>
      {icon}
      <span className={styles.label}>{children}</span>
    </Link>
  );
}

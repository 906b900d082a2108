import type { HTMLAttributes } from "react";
import styles from "./card.module.css";

export interface CardProps extends HTMLAttributes<HTMLDivElement> {
  padding?: "none" | "sm" | "md" | "lg";
  /** A soft brand-tinted surface instead of plain white. */
  tone?: "plain" | "brand";
  as?: "div" | "section" | "article";
}

export function Card({ padding = "md", tone = "plain", as: Tag = "div", className, ...rest }: CardProps) {
  return <Tag {...rest} className={[styles.card, styles[padding], styles[tone], className ?? ""].join(" ")} />;
}

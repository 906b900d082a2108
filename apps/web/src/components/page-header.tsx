import type { ReactNode } from "react";
import styles from "./page-header.module.css";

export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** A small label above the title (e.g. "Step 2 of 7"). */
  eyebrow?: ReactNode;
  align?: "start" | "center";
}

/** A screen's title block; renders the page's one <h1>. */
export function PageHeader({ title, subtitle, eyebrow, align = "start" }: PageHeaderProps) {
  return (
    <div className={`${styles.header} ${align === "center" ? styles.center : ""}`}>
      {eyebrow && <p className={styles.eyebrow}>{eyebrow}</p>}
      <h1 className={styles.title}>{title}</h1>
      {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
    </div>
  );
}

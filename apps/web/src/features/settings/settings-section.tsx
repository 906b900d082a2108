import type { ReactNode } from "react";
import { Icon, type IconName } from "../../components";
import styles from "./settings.module.css";

export interface SettingsSectionProps {
  title: string;
  icon: IconName;
  children: ReactNode;
  tone?: "plain" | "danger";
}

/** One titled group of settings: a card with a heading, as in a phone's settings app. */
export function SettingsSection({ title, icon, children, tone = "plain" }: SettingsSectionProps) {
  const headingId = `settings-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section className={`${styles.section} ${tone === "danger" ? styles.danger : ""}`} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        <Icon name={icon} size={18} />
        {title}
      </h2>
      <div className={styles.sectionBody}>{children}</div>
    </section>
  );
}

import type { ReactNode } from "react";
import { Icon, type IconName } from "./icon";
import styles from "./notice.module.css";

export interface NoticeProps {
  icon?: IconName;
  title: ReactNode;
  children?: ReactNode;
  tone?: "brand" | "neutral";
}

/** A soft highlighted note: status, tips, what is coming next. */
export function Notice({ icon, title, children, tone = "brand" }: NoticeProps) {
  return (
    <div className={`${styles.notice} ${styles[tone]}`}>
      {icon && (
        <span className={styles.icon} aria-hidden="true">
          <Icon name={icon} size={20} />
        </span>
      )}
      <div className={styles.text}>
        <p className={styles.title}>{title}</p>
        {children && <div className={styles.body}>{children}</div>}
      </div>
    </div>
  );
}

import type { ReactNode } from "react";
import { Icon, type IconName } from "../../components/icon";
import styles from "./round-message.module.css";

export interface RoundMessageProps {
  icon: IconName;
  title: ReactNode;
  children?: ReactNode;
  /** Buttons under the text. */
  actions?: ReactNode;
  /** "alert" for failures screen readers should hear at once. */
  role?: "status" | "alert";
}

/**
 * What takes the round's place when there is none to show: no students,
 * out of votes, a failed load, or the question before the preview. Tall
 * enough that the page below it barely moves when a round replaces it.
 */
export function RoundMessage({ icon, title, children, actions, role = "status" }: RoundMessageProps) {
  return (
    <div className={styles.message} role={role}>
      <span className={styles.icon} aria-hidden="true">
        <Icon name={icon} size={30} />
      </span>
      <p className={styles.title}>{title}</p>
      {children && <div className={styles.body}>{children}</div>}
      {actions && <div className={styles.actions}>{actions}</div>}
    </div>
  );
}

import type { ReactNode } from "react";
import styles from "./app-shell.module.css";

export interface AppShellProps {
  children: ReactNode;
  /** "narrow" is the phone-sized app column; "wide" suits long reading (/terms). */
  width?: "narrow" | "wide";
}

/**
 * The app's frame: a phone-width column centred on larger screens, padded
 * clear of notches and the home indicator.
 */
export function AppShell({ children, width = "narrow" }: AppShellProps) {
  return (
    <div className={styles.shell}>
      <div className={`${styles.column} ${width === "wide" ? styles.wide : ""}`}>
        <main className={styles.main}>{children}</main>
      </div>
    </div>
  );
}

import type { ReactNode } from "react";
import { Link } from "react-router";
import { Logo } from "./logo";
import styles from "./top-bar.module.css";

export interface TopBarProps {
  /** Left side; the Quad logo linking home by default. */
  start?: ReactNode;
  /** Right side: a few compact actions. */
  end?: ReactNode;
}

/** The slim bar at the top of a screen. */
export function TopBar({ start, end }: TopBarProps) {
  return (
    <header className={styles.bar}>
      <div className={styles.start}>
        {start ?? (
          <Link to="/" className={styles.home} aria-label="Quad home">
            <Logo size={30} />
          </Link>
        )}
      </div>
      {end && <div className={styles.end}>{end}</div>}
    </header>
  );
}

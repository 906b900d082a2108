import styles from "./allowance-modals.module.css";
import { describeTimeLeft, formatTimeLeft, useTimeLeft } from "./time-left";

export interface TimeLeftProps {
  /** ISO time the wait ends. Give the element `key={availableAt}` so a new time starts a fresh clock. */
  availableAt: string;
  onElapsed?: () => void;
}

/** "42m 05s left", ticking every second. */
export function TimeLeft({ availableAt, onElapsed }: TimeLeftProps) {
  const left = useTimeLeft(availableAt, onElapsed) ?? 0;
  return (
    <p className={styles.timeLeft}>
      {/* The visible clock ticks; screen readers get the same time in words, without a live region announcing every second. */}
      <span aria-hidden="true">
        <span className={styles.clock}>{formatTimeLeft(left)}</span> left
      </span>
      <span className="visually-hidden">{`Time left: ${describeTimeLeft(left)}`}</span>
    </p>
  );
}

import { useEffect, useRef, useState } from "react";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** "1h 0m", "42m 05s", "9s": a countdown that reads well at a glance. */
export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / SECOND)) * SECOND;
  const hours = Math.floor(total / HOUR);
  const minutes = Math.floor((total % HOUR) / MINUTE);
  const seconds = Math.floor((total % MINUTE) / SECOND);
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${String(seconds).padStart(2, "0")}s`;
  return `${seconds}s`;
}

/** "1 hour 0 minutes", "42 minutes 5 seconds": the same for screen readers. */
export function describeTimeLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / SECOND));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (hours > 0) return `${unit(hours, "hour")} ${unit(minutes, "minute")}`;
  if (minutes > 0) return `${unit(minutes, "minute")} ${unit(seconds, "second")}`;
  return unit(seconds, "second");
}

/**
 * Milliseconds until `availableAt` (an ISO time), refreshed every second and
 * settling at 0; null without a time. `onElapsed` runs once when it reaches 0.
 */
export function useTimeLeft(availableAt: string | null | undefined, onElapsed?: () => void): number | null {
  const target = availableAt ? Date.parse(availableAt) : Number.NaN;
  const [now, setNow] = useState(() => Date.now());
  const onElapsedRef = useRef(onElapsed);
  useEffect(() => {
    onElapsedRef.current = onElapsed;
  }, [onElapsed]);

  useEffect(() => {
    if (Number.isNaN(target)) return;
    const id = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= target) {
        window.clearInterval(id);
        onElapsedRef.current?.();
      }
    }, SECOND);
    return () => window.clearInterval(id);
  }, [target]);

  if (Number.isNaN(target)) return null;
  return Math.max(0, target - now);
}

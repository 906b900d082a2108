import { useEffect, useState } from "react";

/** A countdown in whole seconds: start it with `set(n)`; it ticks down to 0. */
export function useCountdown(): [seconds: number, set: (seconds: number) => void] {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = window.setTimeout(() => setSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds]);
  return [seconds, setSeconds];
}

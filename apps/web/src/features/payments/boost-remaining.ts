import { BOOST_TICK_MS } from "@quad/contracts";
import { useEffect, useState } from "react";

const MINUTE_MS = 60_000;
const HOUR_MINUTES = 60;
const DAY_MINUTES = 24 * HOUR_MINUTES;

/**
 * The remaining-boost text of docs/product.md: "Xd Yh" from a day up, "Xh Ym" from
 * an hour up, otherwise "Xm". Minutes round up, so a running boost never
 * reads "0m"; null once it has ended.
 */
export function formatBoostRemaining(remainingMs: number): string | null {
  if (!(remainingMs > 0)) return null;
  const totalMinutes = Math.ceil(remainingMs / MINUTE_MS);
  const days = Math.floor(totalMinutes / DAY_MINUTES);
  const hours = Math.floor((totalMinutes % DAY_MINUTES) / HOUR_MINUTES);
  const minutes = totalMinutes % HOUR_MINUTES;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return `${minutes}m`;
}

/**
 * The boost's remaining time as text, refreshed every BOOST_TICK_MS (and
 * exactly at the end), or null when there is no running boost.
 */
export function useBoostRemaining(endTime: string | null | undefined): string | null {
  const [now, setNow] = useState(() => Date.now());
  const end = endTime ? Date.parse(endTime) : Number.NaN;
  const remaining = Number.isNaN(end) ? 0 : end - now;

  // A new end time (a purchase) is measured from this moment, not from the last tick.
  useEffect(() => {
    const timer = window.setTimeout(() => setNow(Date.now()), 0);
    return () => window.clearTimeout(timer);
  }, [endTime]);

  useEffect(() => {
    if (!(remaining > 0)) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.min(BOOST_TICK_MS, remaining));
    return () => window.clearTimeout(timer);
  }, [now, remaining]);

  return formatBoostRemaining(remaining);
}

const RELATIVE = new Intl.RelativeTimeFormat("en", { numeric: "auto", style: "short" });
const ABSOLUTE = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "5 min. ago", "yesterday", "just now": how long ago `iso` was, seen from `now`. */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  for (const [unit, size] of STEPS) {
    if (Math.abs(seconds) >= size) return RELATIVE.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/** "Nov 22, 2026, 2:05 PM": the exact time, for a title. */
export function exactTime(iso: string): string {
  return ABSOLUTE.format(new Date(iso));
}

const HOUR_MS = 3_600_000;

/** "this hour", "3 hr. ago", "yesterday": a locked card's time, which the server gives only to the hour. */
export function hourAgo(hourIso: string, now: number = Date.now()): string {
  const hours = Math.floor(now / HOUR_MS) - Math.floor(Date.parse(hourIso) / HOUR_MS);
  if (hours <= 0) return "this hour";
  if (hours < 24) return RELATIVE.format(-hours, "hour");
  return RELATIVE.format(-Math.floor(hours / 24), "day");
}

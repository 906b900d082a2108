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

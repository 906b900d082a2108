import { VOTE_NOTICE } from "@quad/contracts";

/** For a student without a school (none are drawn into rounds, but be safe): the strictest US zone for 21:00. */
export const FALLBACK_TIME_ZONE = "America/New_York";

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      // An unknown zone name: schools are seeded with IANA names, but never crash the job over one.
      formatter = formatterFor(FALLBACK_TIME_ZONE);
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock in a time zone at an instant. */
export function wallClock(at: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(at)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Quiet hours (21:00 to 09:00 local): no vote notice is queued or sent. */
export function isQuietHour(at: Date, timeZone: string): boolean {
  const { hour } = wallClock(at, timeZone);
  return hour >= VOTE_NOTICE.quietHoursStart || hour < VOTE_NOTICE.quietHoursEnd;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const c = wallClock(new Date(instant), timeZone);
  const wallAsUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return wallAsUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant the local day containing `at` began (00:00 local). The offset
 * is taken at the guessed midnight, not at `at`, so days on which daylight
 * saving time changes are right too.
 */
export function startOfLocalDay(at: Date, timeZone: string): Date {
  const c = wallClock(at, timeZone);
  const midnightAsUtc = Date.UTC(c.year, c.month - 1, c.day);
  const guess = midnightAsUtc - offsetAt(at.getTime(), timeZone);
  return new Date(midnightAsUtc - offsetAt(guess, timeZone));
}

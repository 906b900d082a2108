import { describe, expect, it } from "vitest";
import { isQuietHour, startOfLocalDay, wallClock } from "./local-time";

describe("local time of a school", () => {
  it("reads the wall clock in the school's zone", () => {
    const at = new Date("2026-01-15T05:30:00Z");
    expect(wallClock(at, "America/Los_Angeles")).toMatchObject({ day: 14, hour: 21, minute: 30 });
    expect(wallClock(at, "America/New_York")).toMatchObject({ day: 15, hour: 0, minute: 30 });
  });

  it.each<[iso: string, zone: string, quiet: boolean]>([
    ["2026-01-15T16:59:59Z", "America/New_York", false], // 11:59
    ["2026-01-15T14:00:00Z", "America/New_York", false], // 09:00 exactly: allowed
    ["2026-01-15T13:59:59Z", "America/New_York", true], // 08:59:59
    ["2026-01-16T01:59:59Z", "America/New_York", false], // 20:59:59
    ["2026-01-16T02:00:00Z", "America/New_York", true], // 21:00 exactly: quiet
    ["2026-01-16T02:00:00Z", "America/Los_Angeles", false], // 18:00 in LA at the same instant
    ["2026-07-01T12:00:00Z", "Pacific/Honolulu", true], // 02:00
  ])("%s in %s is quiet: %j", (iso, zone, quiet) => {
    expect(isQuietHour(new Date(iso), zone)).toBe(quiet);
  });

  it("finds the local midnight, also on the days daylight saving time changes", () => {
    expect(startOfLocalDay(new Date("2026-01-15T20:00:00Z"), "America/Chicago").toISOString()).toBe(
      "2026-01-15T06:00:00.000Z",
    );
    // 2026-03-08: clocks go forward at 02:00 in New York; midnight was still EST (-5).
    expect(startOfLocalDay(new Date("2026-03-08T20:00:00Z"), "America/New_York").toISOString()).toBe(
      "2026-03-08T05:00:00.000Z",
    );
    // 2026-11-01: clocks go back at 02:00; midnight was still EDT (-4).
    expect(startOfLocalDay(new Date("2026-11-01T20:00:00Z"), "America/New_York").toISOString()).toBe(
      "2026-11-01T04:00:00.000Z",
    );
    // Just after local midnight in LA, the day began minutes ago.
    expect(startOfLocalDay(new Date("2026-01-15T08:05:00Z"), "America/Los_Angeles").toISOString()).toBe(
      "2026-01-15T08:00:00.000Z",
    );
  });

  it("falls back to a US zone for an unknown zone name instead of throwing", () => {
    expect(() => isQuietHour(new Date(), "Mars/Olympus_Mons")).not.toThrow();
  });
});

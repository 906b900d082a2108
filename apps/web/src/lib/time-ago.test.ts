import { describe, expect, it } from "vitest";
import { hourAgo } from "./time-ago";

describe("hourAgo: a locked card's hour as the inbox says it", () => {
  const now = Date.parse("2026-11-27T14:37:12.000Z");

  it("says 'this hour' for the hour that is running, never minutes", () => {
    expect(hourAgo("2026-11-27T14:00:00.000Z", now)).toBe("this hour");
  });

  it("counts whole hours back from the hour that is running", () => {
    expect(hourAgo("2026-11-27T13:00:00.000Z", now)).toBe("1 hr. ago");
    expect(hourAgo("2026-11-27T03:00:00.000Z", now)).toBe("11 hr. ago");
  });

  it("counts days past a day", () => {
    expect(hourAgo("2026-11-26T10:00:00.000Z", now)).toBe("yesterday");
    expect(hourAgo("2026-11-20T14:00:00.000Z", now)).toBe("7 days ago");
  });
});

import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { classOf, shortClassYear } from "./class-year";
import { describeTimeLeft, formatTimeLeft } from "./time-left";
import { TimeLeft } from "./time-left-badge";

describe("formatTimeLeft", () => {
  it.each([
    [60 * 60_000, "1h 0m", "1 hour 0 minutes"],
    [42 * 60_000 + 5_000, "42m 05s", "42 minutes 5 seconds"],
    [61_000, "1m 01s", "1 minute 1 second"],
    [9_000, "9s", "9 seconds"],
    [400, "1s", "1 second"],
    [0, "0s", "0 seconds"],
    [-5_000, "0s", "0 seconds"],
  ])("%i ms reads %s", (ms, short, words) => {
    expect(formatTimeLeft(ms)).toBe(short);
    expect(describeTimeLeft(ms)).toBe(words);
  });
});

describe("class year", () => {
  it("reads 'Class of 2027' and '27", () => {
    expect(classOf(2027)).toBe("Class of 2027");
    expect(shortClassYear(2027)).toBe("'27");
    expect(shortClassYear(2105)).toBe("'05");
  });
});

describe("<TimeLeft>", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2025-05-01T12:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("counts down every second and reports when the wait is over", () => {
    const onElapsed = vi.fn();
    render(<TimeLeft availableAt="2025-05-01T12:00:02Z" onElapsed={onElapsed} />);
    expect(screen.getByText("Time left: 2 seconds")).toBeTruthy();
    expect(screen.getByText("2s")).toBeTruthy();

    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByText("1s")).toBeTruthy();
    expect(onElapsed).not.toHaveBeenCalled();

    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByText("0s")).toBeTruthy();
    expect(onElapsed).toHaveBeenCalledTimes(1);

    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(onElapsed).toHaveBeenCalledTimes(1);
  });
});

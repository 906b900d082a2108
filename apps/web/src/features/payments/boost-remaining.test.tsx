import { BOOST_TICK_MS } from "@quad/contracts";
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiProvider } from "../../app/api-provider";
import { getDataLayer } from "../../lib/data-layer";
import { createMeUser } from "../../test/msw";
import { signInAs } from "../../test/render";
import { BoostStatus as BoostStatusAlone } from "../inbox";
import { formatBoostRemaining } from "./boost-remaining";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("formatBoostRemaining", () => {
  it.each([
    [7 * DAY, "7d 0h"],
    [3 * DAY + 5 * HOUR + 59 * MINUTE, "3d 5h"],
    [DAY, "1d 0h"],
    [DAY - 1, "1d 0h"],
    [23 * HOUR + 59 * MINUTE, "23h 59m"],
    [2 * HOUR + 30 * MINUTE, "2h 30m"],
    [HOUR, "1h 0m"],
    [59 * MINUTE, "59m"],
    [90_000, "2m"],
    [1_000, "1m"],
  ])("%d ms → %s", (ms, text) => {
    expect(formatBoostRemaining(ms)).toBe(text);
  });

  it.each([0, -5_000, Number.NaN])("%d ms → nothing", (ms) => {
    expect(formatBoostRemaining(ms)).toBeNull();
  });
});

describe("BoostStatus", () => {
  const start = new Date("2025-04-08T12:00:00Z").getTime();

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    vi.setSystemTime(start);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  function boostEndingIn(ms: number | null) {
    signInAs(createMeUser({ boostEndTime: ms === null ? null : new Date(start + ms).toISOString() }));
  }

  /** It reads the boost's end from the cached profile. */
  const BoostStatus = () => (
    <ApiProvider>
      <BoostStatusAlone />
    </ApiProvider>
  );

  it("renders nothing without a boost", () => {
    boostEndingIn(null);
    const { container } = render(<BoostStatus />);
    expect(container.textContent).toBe("");
  });

  it("counts down every minute and disappears at zero", () => {
    boostEndingIn(2 * MINUTE + 30_000);
    render(<BoostStatus />);
    expect(screen.getByText(/Boosted/).textContent).toBe("Boosted · 3m left");

    act(() => {
      vi.advanceTimersByTime(BOOST_TICK_MS);
    });
    expect(screen.getByText(/Boosted/).textContent).toBe("Boosted · 2m left");
    act(() => {
      vi.advanceTimersByTime(BOOST_TICK_MS);
    });
    expect(screen.getByText(/Boosted/).textContent).toBe("Boosted · 1m left");
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(screen.queryByText(/Boosted/)).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("ticks over hour and day boundaries", () => {
    boostEndingIn(DAY + 30_000);
    render(<BoostStatus />);
    expect(screen.getByText(/Boosted/).textContent).toBe("Boosted · 1d 0h left");
    act(() => {
      vi.advanceTimersByTime(BOOST_TICK_MS);
    });
    expect(screen.getByText(/Boosted/).textContent).toBe("Boosted · 1d 0h left");
    act(() => {
      vi.advanceTimersByTime(BOOST_TICK_MS);
    });
    expect(screen.getByText(/Boosted/).textContent).toBe("Boosted · 23h 59m left");
  });

  it("shows a new, later end at once", () => {
    boostEndingIn(5 * MINUTE);
    render(<BoostStatus />);
    act(() => {
      vi.advanceTimersByTime(20_000);
    });
    act(() =>
      getDataLayer().utils.users.me.setData(
        undefined,
        createMeUser({ boostEndTime: new Date(Date.now() + 3 * DAY).toISOString() }),
      ),
    );
    act(() => {
      vi.advanceTimersByTime(0);
    });
    expect(screen.getByText(/Boosted/).textContent).toBe("Boosted · 3d 0h left");
  });
});

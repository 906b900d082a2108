import { VALIDATION } from "@quad/contracts";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EMPTY_SIGNUP_VALUES, validateFieldStep } from "../signup-values";
import { GraduationStep } from "./graduation-step";

/** The class years by date (docs/product.md "Signing up and signing in"), with the clock fixed on either side of 1 July. */
function yearsOfferedAt(iso: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
  render(<GraduationStep values={EMPTY_SIGNUP_VALUES} errors={{}} onChange={() => {}} />);
  return within(screen.getByRole("group", { name: "Class of" }))
    .getAllByRole("radio")
    .map((radio) => Number(radio.getAttribute("value")));
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("the graduation step offers this academic year's classes", () => {
  it("on 30 June 2026: this year's seniors (2026) to last fall's entering class (2029)", () => {
    expect(yearsOfferedAt("2026-06-30T23:59:59Z")).toEqual([2026, 2027, 2028, 2029]);
  });

  it("from 1 July 2026, as in November: 2027–2030, the class of 2026 gone", () => {
    expect(yearsOfferedAt("2026-07-01T00:00:00Z")).toEqual([2027, 2028, 2029, 2030]);
    cleanup();
    expect(yearsOfferedAt("2026-11-15T12:00:00Z")).toEqual([2027, 2028, 2029, 2030]);
  });

  it("refuses a year kept from before the turn (a draft saved in June) with the step's message", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-06-30T12:00:00Z"));
    const draft = { ...EMPTY_SIGNUP_VALUES, graduationYear: 2026 };
    expect(validateFieldStep("graduation", draft)).toBeNull();
    vi.setSystemTime(new Date("2026-07-01T12:00:00Z"));
    expect(validateFieldStep("graduation", draft)).toEqual({ graduationYear: VALIDATION.graduationYear });
  });
});

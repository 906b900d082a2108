import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { notify } from "../lib/toast";
import { Toaster } from "./toaster";

function screenWidth(phone: boolean) {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: phone && query === "(max-width: 480px)",
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

afterEach(() => vi.unstubAllGlobals());

describe("toasts", () => {
  it.each([true, false])(
    "on a phone (%s) too, show at the bottom, clear of the greeting, the step progress and the Guys/Girls switch",
    async (phone) => {
      screenWidth(phone);
      const view = render(<Toaster />);
      notify.success("Vote sent 🤩");
      await screen.findByText("Vote sent 🤩");
      expect(document.querySelector(`.Toastify__toast-container--bottom-center`)).not.toBeNull();
      view.unmount();
    },
  );
});

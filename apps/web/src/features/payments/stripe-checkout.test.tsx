import { TOASTS } from "@quad/contracts";
import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { inboxAnswers } from "../../test/msw";
import { findDialog, renderSignedIn } from "../inbox/test-support";
import { PaymentDialog } from "./payment-dialog";

// Stripe.js cannot load here (no network): exactly the failure the dialog must report.
const loadStripe = vi.hoisted(() => vi.fn(() => Promise.resolve(null)));
vi.mock("@stripe/stripe-js", () => ({ loadStripe }));

describe("the Stripe Payment Element", { timeout: 20_000 }, () => {
  it('loads Stripe.js only with a publishable key, and says "Stripe is not loaded" when it fails', async () => {
    const backend = inboxAnswers({ config: { paymentProvider: "stripe", stripePublishableKey: "pk_test_123" } });
    renderSignedIn(<PaymentDialog productId="unlock-3" onClose={() => undefined} />, backend);
    const checkout = await findDialog("Checkout");
    expect((await checkout.findByRole("alert")).textContent).toBe(TOASTS.stripeNotLoaded);
    expect(await screen.findAllByText(TOASTS.stripeNotLoaded)).toHaveLength(2); // inline + toast
    expect(loadStripe).toHaveBeenCalledWith("pk_test_123");
    expect(checkout.queryByLabelText("Card number")).toBeNull();
  });

  it("is not loaded for the local provider", async () => {
    loadStripe.mockClear();
    renderSignedIn(<PaymentDialog productId="unlock-3" onClose={() => undefined} />, inboxAnswers());
    const checkout = await findDialog("Checkout");
    expect(await checkout.findByLabelText("Card number")).toBeTruthy();
    expect(loadStripe).not.toHaveBeenCalled();
  });
});

import { BOOST_MESSAGES, INLINE, SCREEN_TEXT, TOASTS } from "@quad/contracts";
import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { createMeUser, inboxAnswers, inTurn, server, TEST_CARDS, trpcError } from "../../test/msw";
import { BoostStatus, BuyUnlocksButton } from "../inbox";
import { fillCard, findDialog, renderSignedIn } from "../inbox/test-support";
import { cachedProfile } from "../../test/render";
import { CARD_MESSAGES } from "./card-input";
import { BoostDialog } from "./boost-dialog";

/** One unlock left; once paid for, the profile has the 3 bought on top. */
const withOneUnlock = () =>
  inboxAnswers({ me: { remainingUnlocks: 1 }, overrides: { "users.me": () => createMeUser({ remainingUnlocks: 4 }) } });

type Dialog = Awaited<ReturnType<typeof findDialog>>;

/** The checkout's own failure line, not the toasts (those show inside the top dialog too, where they stay live). */
const inlineAlerts = (checkout: Dialog) => [
  ...checkout.queryAllByRole("alert").filter((alert) => !alert.closest("[data-over-dialogs]")),
  ...(checkout
    .queryByRole("form", { name: "Card payment" })
    ?.querySelectorAll<HTMLElement>("[data-checkout-failure]") ?? []),
];
const inlineAlert = (checkout: Dialog) =>
  waitFor(() => {
    const [alert, ...more] = inlineAlerts(checkout);
    expect(more).toEqual([]);
    return alert ?? expect.fail("no inline alert");
  });

async function openPackages(backend = withOneUnlock()) {
  const view = renderSignedIn(<BuyUnlocksButton />, backend);
  await view.user.click(screen.getByRole("button", { name: "Buy Unlocks" }));
  const packages = await findDialog("Buy Unlocks");
  return { ...view, backend, packages };
}

async function checkoutUnlock3(view: Awaited<ReturnType<typeof openPackages>>) {
  await view.user.click(view.packages.getByRole("radio", { name: /3 unlocks/ }));
  await view.user.click(view.packages.getByRole("button", { name: "Continue · $7.99" }));
}

describe("buying unlocks", { timeout: 20_000 }, () => {
  it("lists the three packages with their prices, the flash sale struck through", async () => {
    const { packages } = await openPackages();
    expect(packages.getByText(/You have/).textContent).toBe("You have 1 unlock left.");
    const one = packages.getByRole("radio", { name: /1 unlock/ });
    expect(one.closest("label")?.textContent).toMatch(/^1 unlock.*Flash sale · 67% off.*\$0\.99, was \$2\.99$/);
    // While the sale is shown nothing is preselected, and Continue waits for a choice.
    expect(packages.getAllByRole("radio").some((radio) => (radio as HTMLInputElement).checked)).toBe(false);
    expect(packages.getByRole("button", { name: "Choose a package" }).hasAttribute("disabled")).toBe(true);
    // Each pack says what one unlock costs in it.
    expect(packages.getByRole("radio", { name: /3 unlocks/ }).closest("label")?.textContent).toContain("$2.66 each");
    expect(packages.getByRole("radio", { name: /5 unlocks/ }).closest("label")?.textContent).toContain("$2.00 each");
    expect(packages.getByText("$2.99").tagName).toBe("S");
    expect(packages.getByRole("radio", { name: /3 unlocks/ }).closest("label")?.textContent).toContain("$7.99");
    expect(packages.getByRole("radio", { name: /5 unlocks/ }).closest("label")?.textContent).toContain("$9.99");
    expect(packages.getByText(/name, photo, class year, emojis and Instagram handle/)).toBeTruthy();
  });

  it("paying with 4242… toasts success, reloads the profile into the session and closes", async () => {
    const view = await openPackages();
    await checkoutUnlock3(view);
    const checkout = await fillCard(view.user, "4242 4242 4242 4242");
    expect(checkout.getByLabelText("Card number")).toHaveProperty("value", "4242 4242 4242 4242");
    await view.user.click(checkout.getByRole("button", { name: "Pay $7.99" }));

    expect(await screen.findByText(TOASTS.paymentSuccessful)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(view.backend.sent("payments.createPaymentIntent")).toEqual([{ productId: "unlock-3" }]);
    expect(view.backend.sent("payments.localConfirm")).toEqual([
      { clientSecret: "pi_test_1_secret_local", cardNumber: TEST_CARDS.success },
    ]);
    expect(view.backend.sent("users.me")).toHaveLength(1);
    expect(cachedProfile()?.remainingUnlocks).toBe(4);
  });

  it("a declined card shows the provider's message and leaves the dialog open to try another", async () => {
    const view = await openPackages();
    server.use(
      view.backend.handler({
        "payments.localConfirm": inTurn(trpcError("PAYMENT_REQUIRED", "Your card was declined."), {
          status: "succeeded" as const,
          productId: "unlock-3",
        }),
      }),
    );
    await checkoutUnlock3(view);
    const checkout = await fillCard(view.user, TEST_CARDS.declined);
    await view.user.click(checkout.getByRole("button", { name: "Pay $7.99" }));

    const alert = await inlineAlert(checkout);
    expect(alert.textContent).toBe("Your card was declined.");
    expect(await screen.findAllByText("Your card was declined.")).toHaveLength(2); // inline + toast
    // Said once: only the toast is announced.
    expect(
      screen.getAllByRole("alert").filter((alert) => alert.textContent === "Your card was declined."),
    ).toHaveLength(1);
    expect(view.backend.sent("users.me")).toHaveLength(0);
    expect(cachedProfile()?.remainingUnlocks).toBe(1);

    const number = checkout.getByLabelText("Card number");
    await view.user.clear(number);
    await view.user.type(number, TEST_CARDS.success);
    expect(inlineAlerts(checkout)).toEqual([]);
    await view.user.click(checkout.getByRole("button", { name: "Pay $7.99" }));
    expect(await screen.findByText(TOASTS.paymentSuccessful)).toBeTruthy();
    await waitFor(() => expect(cachedProfile()?.remainingUnlocks).toBe(4));
  });

  it('a failure without a message reads "Payment failed"', async () => {
    const view = await openPackages();
    server.use(view.backend.handler({ "payments.localConfirm": () => trpcError("INTERNAL_SERVER_ERROR", "[]") }));
    await checkoutUnlock3(view);
    const checkout = await fillCard(view.user, TEST_CARDS.success);
    await view.user.click(checkout.getByRole("button", { name: "Pay $7.99" }));
    expect((await inlineAlert(checkout)).textContent).toBe(TOASTS.paymentFailed);
  });

  it("checks the card fields before sending anything", async () => {
    const view = await openPackages();
    await checkoutUnlock3(view);
    const checkout = await fillCard(view.user, "4242 4242", { expiry: "01/20", cvc: "1" });
    await view.user.click(checkout.getByRole("button", { name: "Pay $7.99" }));
    expect(checkout.getByText(CARD_MESSAGES.numberIncomplete)).toBeTruthy();
    expect(checkout.getByText(CARD_MESSAGES.expiryPast)).toBeTruthy();
    expect(checkout.getByText(CARD_MESSAGES.cvcIncomplete)).toBeTruthy();
    expect(document.activeElement).toBe(checkout.getByLabelText("Card number"));
    expect(checkout.getByLabelText("Card number").getAttribute("aria-invalid")).toBe("true");
    expect(view.backend.sent("payments.localConfirm")).toHaveLength(0);
  });

  it('a failed intent shows "Failed to load payment details. Please try again." inline, and retrying works', async () => {
    const view = await openPackages();
    let fail = true;
    server.use(
      view.backend.handler({
        "payments.createPaymentIntent": (call) =>
          fail
            ? trpcError("BAD_REQUEST", "Unknown product")
            : view.backend.resolvers["payments.createPaymentIntent"]!(call),
      }),
    );
    await checkoutUnlock3(view);
    const checkout = await findDialog("Checkout");
    expect(await checkout.findByText(INLINE.loadPaymentDetailsFailed)).toBeTruthy();
    expect(await screen.findByText("Unknown product")).toBeTruthy(); // the toast
    expect(checkout.queryByLabelText("Card number")).toBeNull();

    fail = false;
    await view.user.click(checkout.getByRole("button", { name: "Try again" }));
    expect(await checkout.findByLabelText("Card number")).toBeTruthy();
  });

  it("closing the checkout goes back to the packages", async () => {
    const view = await openPackages();
    await checkoutUnlock3(view);
    const checkout = await findDialog("Checkout");
    await checkout.findByLabelText("Card number");
    await view.user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog", { name: "Checkout" })).toBeNull();
    expect(screen.getByRole("dialog", { name: "Buy Unlocks" })).toBeTruthy();
  });
});

describe("boosts", { timeout: 20_000 }, () => {
  it("offers 24 hours, 3 days and Superboost; paying shows the remaining time", async () => {
    // Once paid for, the profile is boosted for a day.
    const backend = inboxAnswers({
      overrides: {
        "users.me": () =>
          createMeUser({
            boostEndTime: backend.sent("payments.localConfirm").length
              ? new Date(Date.now() + 86_400_000).toISOString()
              : null,
          }),
      },
    });
    const view = renderSignedIn(
      <>
        <BoostStatus />
        <BoostDialog open onClose={() => undefined} />
      </>,
      backend,
    );
    const boost = await findDialog("Boost your profile");
    expect(boost.getByText(SCREEN_TEXT.boostTagline)).toBeTruthy();
    expect(boost.getByRole("radio", { name: /24 hours/ }).closest("label")?.textContent).toContain("$4.99");
    expect(boost.getByRole("radio", { name: /3 days/ }).closest("label")?.textContent).toContain("$8.99");
    expect(boost.getByRole("radio", { name: /Superboost/ }).closest("label")?.textContent).toMatch(/7 days.*\$12\.99/);
    expect(screen.queryByText(/Boosted ·/)).toBeNull();
    // Nothing preselected: no radio is on and the button waits for a choice.
    expect(boost.getAllByRole("radio").filter((radio) => (radio as HTMLInputElement).checked)).toEqual([]);
    expect(boost.getByRole("button", { name: "Boost" })).toHaveProperty("disabled", true);

    await view.user.click(boost.getByRole("radio", { name: /24 hours/ }));
    await view.user.click(boost.getByRole("button", { name: "Boost · $4.99" }));
    const checkout = await fillCard(view.user, TEST_CARDS.success);
    await view.user.click(checkout.getByRole("button", { name: "Pay $4.99" }));

    expect(await screen.findByText(TOASTS.paymentSuccessful)).toBeTruthy();
    expect(backend.sent("payments.createPaymentIntent")).toEqual([{ productId: "boost-1" }]);
    await waitFor(() => expect(screen.getByText(/Boosted ·/).textContent).toBe("Boosted · 1d 0h left"));
  });

  it("shows the server's refusal of a boost in the checkout, without a retry or a card form", async () => {
    const backend = inboxAnswers({
      overrides: { "payments.createPaymentIntent": () => trpcError("FORBIDDEN", BOOST_MESSAGES.paused) },
    });
    const view = renderSignedIn(<BoostDialog open onClose={() => undefined} />, backend);
    const boost = await findDialog("Boost your profile");
    await view.user.click(boost.getByRole("radio", { name: /3 days/ }));
    await view.user.click(boost.getByRole("button", { name: "Boost · $8.99" }));
    const checkout = await findDialog("Checkout");
    expect((await inlineAlert(checkout)).textContent).toBe(BOOST_MESSAGES.paused);
    expect(checkout.queryByLabelText("Card number")).toBeNull();
    expect(checkout.queryByRole("button", { name: "Try again" })).toBeNull();
  });

  it("says so when a boost was refunded instead of applied", async () => {
    const backend = inboxAnswers({
      overrides: { "payments.localConfirm": () => trpcError("FORBIDDEN", BOOST_MESSAGES.refunded) },
    });
    const view = renderSignedIn(<BoostDialog open onClose={() => undefined} />, backend);
    const boost = await findDialog("Boost your profile");
    await view.user.click(boost.getByRole("radio", { name: /3 days/ }));
    await view.user.click(boost.getByRole("button", { name: "Boost · $8.99" }));
    const checkout = await fillCard(view.user, TEST_CARDS.success);
    await view.user.click(checkout.getByRole("button", { name: "Pay $8.99" }));
    expect((await inlineAlert(checkout)).textContent).toBe(BOOST_MESSAGES.refunded);
  });
});

import type { MeUser } from "@quad/contracts";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { ApiProvider } from "../../app/api-provider";
import { Toaster } from "../../app/toaster";
import { createMeUser, server, type InboxAnswers } from "../../test/msw";
import { signInAs } from "../../test/render";

/**
 * Renders feature UI the way /home does (data layer, toasts) for a signed-in
 * student whose cached profile is the one users.me answers (or `user` on top).
 */
export function renderSignedIn(ui: ReactNode, answers: InboxAnswers, user: Partial<MeUser> = {}) {
  server.use(answers.handler());
  signInAs(createMeUser({ ...answers.me, ...user }));
  // The pointer-events check reads computed styles up the tree on every click: slow in jsdom.
  const events = userEvent.setup({ pointerEventsCheck: 0 });
  const view = render(
    <ApiProvider>
      {ui}
      <Toaster />
    </ApiProvider>,
  );
  return { ...view, user: events };
}

export async function findDialog(name: string | RegExp) {
  return within(await screen.findByRole("dialog", { name }));
}

/** Fills the local card form; expiry and CVC default to valid ones. */
export async function fillCard(
  user: ReturnType<typeof userEvent.setup>,
  number: string,
  { expiry = "12/34", cvc = "123" }: { expiry?: string; cvc?: string } = {},
) {
  const checkout = await findDialog("Checkout");
  await user.type(await checkout.findByLabelText("Card number"), number);
  await user.type(checkout.getByLabelText("Expiration date (MM / YY)"), expiry);
  await user.type(checkout.getByLabelText("Security code (CVC)"), cvc);
  return checkout;
}

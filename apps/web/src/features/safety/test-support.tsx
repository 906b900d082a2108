import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ApiProvider } from "../../app/api-provider";
import { Toaster } from "../../app/toaster";
import { createMeUser, recording, server, trpcHandler, type TrpcResolvers } from "../../test/msw";
import { signInAs } from "../../test/render";
import { safetyAnswers } from "../../test/msw/safety";
import type { SafetySubject } from "./subject";
import { useSafetyActions } from "./use-safety-actions";

function Harness({ subject, onBlocked }: { subject: SafetySubject; onBlocked?: () => void }) {
  const safety = useSafetyActions({ onBlocked });
  return (
    <>
      <button type="button" onClick={() => safety.open(subject)}>
        Open menu
      </button>
      {safety.dialogs}
    </>
  );
}

export const CANDIDATE: SafetySubject = { target: { userId: "00000000-0000-4000-8000-0000000c0001" }, name: "Maya" };

/**
 * The card menu for `subject` with the data layer and toasts, signed in,
 * against canned safety answers (`overrides` replaces some); `sent(path)`
 * is what the UI sent.
 */
export function renderSafety({
  subject = CANDIDATE,
  onBlocked,
  overrides = {},
}: { subject?: SafetySubject; onBlocked?: () => void; overrides?: TrpcResolvers } = {}) {
  const { resolvers, sent } = recording({ ...safetyAnswers, ...overrides });
  server.use(trpcHandler(resolvers));
  signInAs(createMeUser());
  const user = userEvent.setup({ pointerEventsCheck: 0 });
  render(
    <ApiProvider>
      <Harness subject={subject} onBlocked={onBlocked} />
      <Toaster />
    </ApiProvider>,
  );
  return { sent, user };
}

export function dialog(name: string | RegExp) {
  return within(screen.getByRole("dialog", { name }));
}

import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { settingsAnswers, server, type SettingsAnswersOptions } from "../../test/msw";
import { renderApp, signInAs } from "../../test/render";
import { SETTINGS_TEXT } from "./texts";

/** /settings for a signed-in student whose cached profile is the one users.me answers. */
export async function openSettings(options: SettingsAnswersOptions = {}) {
  const answers = settingsAnswers(options);
  server.use(...answers.handlers);
  signInAs(answers.me);
  const user = userEvent.setup({ pointerEventsCheck: 0 });
  const view = renderApp("/settings");
  // The first visit compiles the lazy screen: allow for a busy machine.
  await screen.findByRole("heading", { level: 1, name: SETTINGS_TEXT.title }, { timeout: 5_000 });
  return { ...view, user, sent: answers.sent };
}

/** One titled section of the settings screen. */
export const section = (name: string) => within(screen.getByRole("region", { name }));

/** What the push device setting says. Server messages come from contracts. */
export const PUSH_TEXT = {
  title: "Notifications on this device",
  on: "You'll get a notification here the moment someone votes for you.",
  off: "Free and instant, instead of a text.",
  /** The rule of docs/decisions/0018-web-push-and-the-service-worker.md: push replaces texts while any device has it on. */
  replacesTexts:
    "While notifications are on for any of your devices, vote notices go there instead of by text. Texts come back when you turn them off everywhere. Quiet hours (9pm to 9am) and 3 a day apply to both.",
  blocked: "Notifications are blocked for Quad in this browser. Allow them in the site settings, then try again.",
  iosInstallFirst:
    "On iPhone and iPad, add Quad to your Home Screen first (tap Share, then Add to Home Screen) and open it from there to turn on notifications.",
  unsupported: "This browser can't show notifications from Quad.",
  failed: "Couldn't turn on notifications on this device. Please try again.",
} as const;

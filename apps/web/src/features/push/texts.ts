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

/** The offers made where they help: when votes run out, and after a vote. */
export const OFFER_TEXT = {
  votesBackTitle: "Get told when your votes are back",
  votesBackBody:
    "Turn on notifications: you'll hear when someone votes for you, and when your votes are back while Quad is open.",
  afterVoteTitle: "Know the moment someone votes for you",
  afterVoteBody: "Turn on notifications on this device. Free, and instead of a text.",
  turnOn: "Notify me",
  turnedOn: "Notifications are on. We'll tell you.",
  notNow: "Not now",
  installTitle: "Add Quad to your home screen",
  installBody: "Open it like an app, full screen, one tap away.",
  install: "Install",
  iosStepsTitle: "Add Quad to your Home Screen",
  iosSteps: ["Tap Share in Safari's toolbar.", "Choose Add to Home Screen.", "Open Quad from your Home Screen."],
  iosThenNotifications: "Then turn on notifications from Quad there.",
  votesBackNotice: "Your votes are back",
  votesBackNoticeBody: "A new batch of rounds is waiting.",
} as const;

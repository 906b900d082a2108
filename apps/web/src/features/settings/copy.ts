/** The settings screen's own words. Server messages come from contracts. */
export const SETTINGS_COPY = {
  title: "Settings",
  profileSaved: "Profile saved",
  photoSaved: "Photo updated",
  smsOn: "You'll get a text when someone votes for you.",
  smsOff: "Vote notifications by text are off.",
  smsWhilePush: "Paused while notifications are on: texts come back if you turn them off.",
  smsOptedOut:
    "You replied STOP to one of our texts, so your carrier blocks them. Reply START to any Quad text to turn them back on.",
  pushTitle: "Notifications on this device",
  pushOn: "You'll get a notification here the moment someone votes for you.",
  pushOff: "Free and instant, instead of a text.",
  /** The rule of docs/decisions/0018-web-push-and-the-service-worker.md: push replaces texts while any device has it on. */
  pushReplacesTexts:
    "While notifications are on for any of your devices, vote notices go there instead of by text. Texts come back when you turn them off everywhere. Quiet hours (9pm to 9am) and 3 a day apply to both.",
  pushBlocked: "Notifications are blocked for Quad in this browser. Allow them in the site settings, then try again.",
  pushIosInstallFirst:
    "On iPhone and iPad, add Quad to your Home Screen first (tap Share, then Add to Home Screen) and open it from there to turn on notifications.",
  pushUnsupported: "This browser can't show notifications from Quad.",
  pushFailed: "Couldn't turn on notifications on this device. Please try again.",
  pauseTitle: "Pause my profile",
  pauseDescription: "While paused, you won't appear in anyone's rounds. Votes you already got stay.",
  pausedToast: "Your profile is paused",
  resumedToast: "Your profile is live again",
  previewTitle: "Show me on the Quad homepage",
  previewDescription:
    "Visitors who aren't signed in may see your first name, photo, class year and school in the preview round.",
  noBlocks: "You haven't blocked anyone.",
  unblocked: (name: string) => `${name} is unblocked`,
  exportTitle: "Download my data",
  exportDescription: "A JSON file with everything Quad stores about you.",
  exportFailed: "Couldn't prepare your data. Please try again.",
  deleteTitle: "Delete my account",
  deleteDescription:
    "Removes your profile, photos, received votes, unlocks, sessions and consent records right away. Votes you sent stay counted but can never be revealed. Purchase records are kept without your profile, as the law requires.",
  deleteConfirmLabel: "Type DELETE to confirm",
  deleted: "Your account was deleted.",
} as const;

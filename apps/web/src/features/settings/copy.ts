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

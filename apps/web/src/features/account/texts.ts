/** What the account sections (pausing, the preview opt-in, export, deletion) say. Server messages come from contracts. */
export const ACCOUNT_TEXT = {
  pauseTitle: "Pause my profile",
  pauseDescription: "While paused, you won't appear in anyone's rounds. Votes you already got stay.",
  pausedToast: "Your profile is paused",
  pausedNoticeTitle: "Your profile is paused",
  pausedNoticeBody: "Classmates don't see you in their rounds, so no new votes reach you. You can still vote.",
  resume: "Resume",
  pausedNoticeHow: "Or turn off Pause my profile in Settings, under Privacy.",
  resumedToast: "Your profile is live again",
  previewTitle: "Show me on the Quad homepage",
  previewDescription:
    "Visitors who aren't signed in may see your first name, photo, class year and school in the preview round.",
  exportTitle: "Download my data",
  exportDescription: "A JSON file with everything Quad stores about you.",
  exportFailed: "Couldn't prepare your data. Please try again.",
  deleteTitle: "Delete my account",
  deleteDescription:
    "Removes your profile, photos, received votes, unlocks, sessions and consent records right away. Votes you sent stay counted but can never be revealed. Purchase records are kept without your profile, as the law requires.",
  deleteConfirmLabel: "Type DELETE to confirm",
  deleted: "Your account was deleted.",
} as const;

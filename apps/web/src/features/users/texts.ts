import { PROFILE_LIST } from "@quad/contracts";

/** What the profile editor and the texts' switch say. Server messages come from contracts. */
export const USERS_TEXT = {
  profileSaved: "Profile saved",
  photoSaved: "Photo updated",
  smsOn: "You'll get a text when someone votes for you.",
  smsOff: "Vote notifications by text are off.",
  smsWhilePush: "Paused while notifications are on: texts come back if you turn them off.",
  smsOptedOut:
    "You replied STOP to one of our texts, so your carrier blocks them. Reply START to any Quad text to turn them back on.",
} as const;

/** What the field says at a limit, instead of cutting what was typed or refusing it silently. */
export const TAG_LIMITS = {
  full: (label: string) =>
    `That's the most ${label.toLowerCase()} you can list (${PROFILE_LIST.maxItems}). Remove one to add another.`,
  tooLong: `Keep each one to ${PROFILE_LIST.maxLength} characters or fewer.`,
};

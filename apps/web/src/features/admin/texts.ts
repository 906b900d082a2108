import { REPORTER_WEIGHT, REPORTS_TO_HOLD, type ADMIN_ACTIONS } from "@quad/contracts";

type AdminAction = (typeof ADMIN_ACTIONS)[number];

/** Copy of the moderation screen (admins only; nothing here is shared with the server). */
export const ADMIN_TEXT = {
  eyebrow: "Admin",
  title: "Moderation",
  subtitle: `Open reports: "Under 18" first, whatever they weigh, then the most reported. Reports weighing ${REPORTS_TO_HOLD} put a profile on hold until you decide: a reporter's account counts for nothing in its first ${REPORTER_WEIGHT.newAccountDays} days and for half until ${REPORTER_WEIGHT.youngAccountDays} days.`,
  queueTitle: "Review queue",
  queueEmptyTitle: "No open reports",
  queueEmptyBody: "New reports show up here.",
  auditTitle: "Audit trail",
  auditSubtitle: "Every moderation action, newest first.",
  auditEmpty: "No actions yet.",
  loadFailed: "Couldn't load the review queue.",
  tryAgain: "Try again",
  backToQuad: "Back to Quad",
  held: "On hold",
  /** An Under 18 report: first in the queue, with how long it has waited. */
  urgent: (waiting: string) => `Urgent · reported ${waiting}`,
  noSchool: "No school",
  noPhoto: "No photo",
  reportCount: (count: number) => (count === 1 ? "1 report" : `${count} reports`),
  reportedBy: (name: string) => `by ${name}`,
  reporterDeleted: "by an account since deleted: doesn't count toward a hold",
  reportWeight: (weight: number) =>
    weight === 0 ? "new account: doesn't count toward a hold" : `young account: counts ${weight}`,
  holdProgress: (weight: number) => `weighs ${weight} of ${REPORTS_TO_HOLD}`,
  restore: "Restore",
  removeProfile: "Remove profile",
  removePhoto: "Remove photo",
  cancel: "Cancel",
  confirmRemoveProfileTitle: (name: string) => `Remove ${name}'s profile?`,
  confirmRemoveProfileBody: (name: string) =>
    `${name}'s account is deleted at once, as if they had deleted it: profile, photos, received votes, unlocks and sessions. This can't be undone.`,
  confirmRemovePhotoTitle: (name: string) => `Remove ${name}'s photo?`,
  confirmRemovePhotoBody: (name: string) =>
    `The photo is deleted and ${name} stops appearing in rounds until they upload a new one. Photo reports are closed; other reports stay open.`,
  restored: (name: string) => `${name} is restored`,
  profileRemoved: (name: string) => `${name}'s profile was removed`,
  photoRemoved: (name: string) => `${name}'s photo was removed`,
  actionFailed: "That didn't work. Please try again.",
  byCli: "from the command line",
  byAdmin: (adminId: string) => `by admin ${shortId(adminId)}`,
} as const;

export const AUDIT_ACTION_LABELS: Record<AdminAction, string> = {
  restore: "Restored a profile",
  remove_profile: "Removed a profile",
  remove_photo: "Removed a photo",
  grant_admin: "Granted admin",
};

/** The first block of a uuid: enough to tell entries apart at a glance (the full id is in the title). */
export function shortId(id: string): string {
  return id.split("-")[0] ?? id;
}

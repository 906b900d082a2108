import { z } from "zod";
import { IsoDateTime, MediaUrl } from "./common";
import { BooleanText } from "./validation";

/** Why a student can be reported (issue: trust and safety). */
export const REPORT_REASONS = ["fake_profile", "under_18", "not_a_student", "inappropriate_photo", "harassment", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  fake_profile: "Fake profile",
  under_18: "Under 18",
  not_a_student: "Not a student here",
  inappropriate_photo: "Inappropriate photo",
  harassment: "Harassment",
  other: "Something else",
};
/** Distinct reporters that pause a profile until a moderator reviews it. */
export const REPORTS_TO_HOLD = 3;
export const REPORT_NOTE_MAX = 280;

/**
 * Whom a block or report is about: a candidate shown in a round (their id)
 * or the voter behind one of the caller's unlocked vote cards (the card id).
 */
export const SafetyTarget = z.union([
  z.object({ userId: z.uuid({ error: "Invalid student" }) }).strict(),
  z.object({ voteCardId: z.uuid({ error: "Invalid vote card" }) }).strict(),
]);
export type SafetyTarget = z.infer<typeof SafetyTarget>;

export const BlockInput = SafetyTarget;
export const UnblockInput = z.object({ userId: z.uuid({ error: "Invalid student" }) }).strict();
export const BlockedStudents = z.object({
  blocked: z.array(z.object({ userId: z.string(), firstName: z.string(), photo: MediaUrl.nullable(), blockedAt: IsoDateTime })),
});

export const ReportInput = z
  .object({
    target: SafetyTarget,
    reason: z.enum(REPORT_REASONS, { error: "Choose a reason" }),
    note: z.string().trim().max(REPORT_NOTE_MAX, `Keep it under ${REPORT_NOTE_MAX} characters`).optional(),
  })
  .strict()
  .refine((input) => input.reason !== "other" || Boolean(input.note), { path: ["note"], message: "Tell us what happened" });

export const OkResult = z.object({ ok: z.literal(true) });

export const SetPausedInput = z.object({ paused: BooleanText }).strict();
export const SetPreviewInput = z.object({ showInPreview: BooleanText }).strict();
/** Deleting an account is final; the client sends the word the person typed. */
export const DeleteAccountInput = z.object({ confirm: z.literal("DELETE", { error: 'Type DELETE to confirm' }) }).strict();

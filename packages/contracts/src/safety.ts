import { z } from "zod";
import { IsoDateTime, MediaUrl, OkResult } from "./common";
import { multiLineText } from "./validation";
import { type EndpointDef, route } from "./endpoint";

/** Why a student can be reported (issue: trust and safety). */
export const REPORT_REASONS = [
  "fake_profile",
  "under_18",
  "not_a_student",
  "inappropriate_photo",
  "harassment",
  "other",
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  fake_profile: "Fake profile",
  under_18: "Under 18",
  not_a_student: "Not a student here",
  inappropriate_photo: "Inappropriate photo",
  harassment: "Harassment",
  other: "Something else",
};
/**
 * Reasons a moderator must see first, whatever the report weighs: a minor
 * on the app cannot wait for three established reporters, and at a new
 * school every account is too young to weigh anything.
 */
export const URGENT_REPORT_REASONS: readonly ReportReason[] = ["under_18"];

/**
 * A profile is paused until a moderator reviews it once its open reports
 * weigh this much (decision 0010). Each reporter is a verified student of
 * the same school who was shown the student; what their report weighs
 * depends on how old their account was when they reported.
 */
export const REPORTS_TO_HOLD = 3;
export const REPORTER_WEIGHT = {
  /** Younger than this many days: the report reaches the moderators but weighs nothing toward a hold. */
  newAccountDays: 3,
  /** Younger than this many days (and not new): half a reporter. */
  youngAccountDays: 14,
  young: 0.5,
} as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What one report weighs toward a hold: 0, 0.5 or 1, by the reporter's account age when they reported. */
export function reportWeight(accountCreatedAt: Date, reportedAt: Date): number {
  const ageDays = (reportedAt.getTime() - accountCreatedAt.getTime()) / DAY_MS;
  if (ageDays < REPORTER_WEIGHT.newAccountDays) return 0;
  if (ageDays < REPORTER_WEIGHT.youngAccountDays) return REPORTER_WEIGHT.young;
  return 1;
}

/** Reports one student may file in any 24 hours. */
export const REPORTS_PER_DAY = 10;
export const REPORT_WINDOW_MS = DAY_MS;
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

/**
 * A block names its target the same way; its own name matches the other routes' inputs.
 * @alias
 */
export const BlockInput = SafetyTarget;
export const UnblockInput = z.object({ userId: z.uuid({ error: "Invalid student" }) }).strict();
export const BlockedStudents = z.object({
  blocked: z.array(
    z.object({ userId: z.string(), firstName: z.string(), photo: MediaUrl.nullable(), blockedAt: IsoDateTime }),
  ),
});

export const ReportInput = z
  .object({
    target: SafetyTarget,
    reason: z.enum(REPORT_REASONS, { error: "Choose a reason" }),
    note: multiLineText().trim().max(REPORT_NOTE_MAX, `Keep it under ${REPORT_NOTE_MAX} characters`).optional(),
  })
  .strict()
  .refine((input) => input.reason !== "other" || Boolean(input.note), {
    path: ["note"],
    message: "Tell us what happened",
  });

/** The safety procedures' rows of the endpoint table (merged in routes.ts). */
export const safetyRoutes = {
  "safety.block": route({
    writeLimit: true,
    method: "POST",
    path: "/safety/block",
    auth: true,
    tags: ["safety"],
    summary: "Block a candidate or the voter behind an unlocked vote card: neither sees the other again",
    input: BlockInput,
    output: OkResult,
  }),
  "safety.unblock": route({
    writeLimit: true,
    method: "POST",
    path: "/safety/unblock",
    auth: true,
    tags: ["safety"],
    summary: "Undo a block",
    input: UnblockInput,
    output: OkResult,
  }),
  "safety.blocks": route({
    method: "GET",
    path: "/safety/blocks",
    auth: true,
    tags: ["safety"],
    summary: "The students the caller blocked",
    output: BlockedStudents,
  }),
  "safety.report": route({
    writeLimit: true,
    method: "POST",
    path: "/safety/report",
    auth: true,
    tags: ["safety"],
    summary: "Report a student to the moderators",
    input: ReportInput,
    output: OkResult,
  }),
} as const satisfies Record<`safety.${string}`, EndpointDef>;

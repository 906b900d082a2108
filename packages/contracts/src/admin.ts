import { z } from "zod";
import { IsoDateTime, MediaUrl, OkResult } from "./common";
import { type EndpointDef, route } from "./endpoint";

/** Moderation (admins only; every action is written to the audit log). */
export const AdminTargetInput = z.object({ userId: z.uuid({ error: "Invalid student" }) }).strict();

export const ReviewQueue = z.object({
  students: z.array(
    z.object({
      userId: z.string(),
      firstName: z.string(),
      photo: MediaUrl.nullable(),
      school: z.string().nullable(),
      held: z.boolean(),
      /**
       * When the oldest open urgent report (Under 18) was filed, or null: such a
       * student comes first in the queue, longest waiting first, whatever the reports weigh.
       */
      urgentSince: IsoDateTime.nullable(),
      /** Moderators see who reported and when; weight is what the report counts toward a hold (0, 0.5 or 1). */
      reports: z.array(
        z.object({
          reason: z.string(),
          urgent: z.boolean(),
          note: z.string().nullable(),
          at: IsoDateTime,
          /** Null once the reporter deleted their account: the report stays, weighing nothing. */
          reporter: z.object({ userId: z.string(), firstName: z.string() }).nullable(),
          weight: z.number(),
        }),
      ),
      /** The reports' weights summed: a hold comes at REPORTS_TO_HOLD. */
      weight: z.number(),
    }),
  ),
});
export type ReviewQueue = z.infer<typeof ReviewQueue>;

export const ADMIN_ACTIONS = ["restore", "remove_profile", "remove_photo", "grant_admin"] as const;
export const AuditTrail = z.object({
  entries: z.array(
    z.object({
      action: z.enum(ADMIN_ACTIONS),
      adminId: z.string().nullable(),
      targetUserId: z.string().nullable(),
      at: IsoDateTime,
    }),
  ),
});

/** The admin procedures' rows of the endpoint table (merged in routes.ts). */
export const adminRoutes = {
  "admin.reviewQueue": route({
    auth: "moderator",
    tags: ["admin"],
    summary: "Held and reported students, for review",
    output: ReviewQueue,
  }),
  "admin.auditTrail": route({
    auth: "moderator",
    tags: ["admin"],
    summary: "The moderators' recent actions",
    output: AuditTrail,
  }),
  "admin.restore": route({
    writeLimit: true,
    auth: "moderator",
    tags: ["admin"],
    summary: "Lift a hold: the student is shown again",
    input: AdminTargetInput,
    output: OkResult,
  }),
  "admin.removeProfile": route({
    writeLimit: true,
    auth: "moderator",
    tags: ["admin"],
    summary: "Delete a student's account",
    input: AdminTargetInput,
    output: OkResult,
  }),
  "admin.removePhoto": route({
    writeLimit: true,
    auth: "moderator",
    tags: ["admin"],
    summary: "Remove a student's photo",
    input: AdminTargetInput,
    output: OkResult,
  }),
} as const satisfies Record<`admin.${string}`, EndpointDef>;

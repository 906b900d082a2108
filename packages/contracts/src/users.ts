import { z } from "zod";
import { GENDERS } from "./constants";
import { Int4Count, IsoDateTime, MediaUrl, SerialId, SmallintYear } from "./common";
import { SetSmsInput, SmsSettings } from "./sms";
import { ProfileUpdateSchema } from "./validation";
import { type EndpointDef, route } from "./endpoint";

/**
 * The signed-in student's own view (docs/product.md User, plus id, preference,
 * boostEndTime, organizations, interests). Only the owner ever receives it.
 * Fields are null until the sign-up wizard has filled them.
 */
export const MeUser = z.object({
  id: z.string(),
  phone: z.string(),
  firstName: z.string().nullable(),
  university: SerialId.nullable(),
  graduationYear: SmallintYear.nullable(),
  instagramHandle: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  preference: z.enum(GENDERS).nullable(),
  profileImage: MediaUrl.nullable(),
  isVerified: z.boolean(),
  remainingUnlocks: Int4Count,
  schoolLogo: MediaUrl.nullable(),
  schoolName: z.string().nullable(),
  boostEndTime: IsoDateTime.nullable(),
  organizations: z.array(z.string()),
  interests: z.array(z.string()),
  emojis: z.array(z.string()),
  /** Paused by the student, or held for review after reports: not shown as a candidate. */
  paused: z.boolean(),
  /** Held after reports until a moderator reviews it; the student cannot unpause it meanwhile. */
  heldForReview: z.boolean(),
  /** Opted in to appear in the public landing preview. */
  showInPreview: z.boolean(),
  /** Membership of the school is proved: until then no rounds, and never shown to others. */
  schoolEmailVerified: z.boolean(),
  /** The proved school address (private to the owner); null before, and for demo students. */
  schoolEmail: z.string().nullable(),
});
export type MeUser = z.infer<typeof MeUser>;

export const UpdateUserResult = z.object({ user: MeUser });

/** The users procedures' rows of the endpoint table (merged in routes.ts). */
export const usersRoutes = {
  "users.me": route({
    method: "GET",
    path: "/users/me",
    auth: true,
    tags: ["users"],
    summary: "The signed-in student's own profile",
    output: MeUser,
  }),
  "users.update": route({
    writeLimit: true,
    method: "PATCH",
    path: "/users/update",
    auth: true,
    tags: ["users"],
    summary: "Create or change the profile (multipart, with an optional profileImage file)",
    input: ProfileUpdateSchema,
    output: UpdateUserResult,
    multipart: true,
  }),
  "users.smsSettings": route({
    method: "GET",
    path: "/users/sms-settings",
    auth: true,
    tags: ["users"],
    summary: "Whether vote notifications are texted to the signed-in phone",
    output: SmsSettings,
  }),
  "users.setSms": route({
    writeLimit: true,
    method: "PUT",
    path: "/users/sms-settings",
    auth: true,
    tags: ["users"],
    summary: "Turn vote notifications by SMS on or off (recorded as consent)",
    input: SetSmsInput,
    output: SmsSettings,
  }),
} as const satisfies Record<`users.${string}`, EndpointDef>;

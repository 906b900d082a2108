import { z } from "zod";
import * as admin from "./admin";
import * as auth from "./auth";
import * as dev from "./dev";
import * as payments from "./payments";
import * as prompts from "./prompts";
import * as push from "./push";
import * as sms from "./sms";
import { SchoolList } from "./schools";
import { MeUser, UpdateUserResult } from "./users";
import { ProfileUpdateSchema } from "./validation";
import * as safety from "./safety";
import * as schoolEmail from "./school-email";
import * as votes from "./votes";

/**
 * The endpoint table: every tRPC procedure, keyed by its dotted path
 * ("users.me"), with who may call it and its schemas; and, for the ones
 * served as REST too, the method and path under /api. The server builds
 * each procedure from its row (apps/server/src/trpc/endpoints.ts), and its
 * REST adapter and OpenAPI document from `routeList`; a route whose
 * procedure does not exist yet is simply not mounted.
 */
export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** One row of the table. */
export interface EndpointDef {
  /** REST method and path below /api; both absent for a tRPC-only procedure. */
  method?: HttpMethod;
  path?: string;
  /** false: anyone; true: a session; "moderator": a session of an admin (tRPC only). */
  auth: boolean | "moderator";
  summary: string;
  tags: string[];
  /** GET inputs come from the query string, others from the JSON body. */
  input?: z.ZodType;
  output: z.ZodType;
  /** The body is multipart/form-data (fields validated by `input`, files beside them). */
  multipart?: boolean;
  /** Not served in production unless explicitly allowed. */
  devOnly?: boolean;
}

/** A REST route: a row with a method and path, named by its procedure (the row's key). */
export interface RouteDef extends EndpointDef {
  method: HttpMethod;
  path: string;
  auth: boolean;
  /** Dotted tRPC procedure path, e.g. "users.me": the row's key. */
  procedure: string;
}

const route = <R extends EndpointDef>(def: R) => def;

export const routes = {
  health: route({
    method: "GET",
    path: "/health",
    auth: false,
    tags: ["ops"],
    summary: "Answers when the server and its database do",
    output: dev.Health,
  }),
  "auth.sendCode": route({
    method: "POST",
    path: "/auth/send-code",
    auth: false,
    tags: ["auth"],
    summary: "Send a 6-digit sign-in code by SMS",
    input: auth.SendCodeInput,
    output: auth.SendCodeResult,
  }),
  "auth.verifyCode": route({
    method: "POST",
    path: "/auth/verify-code",
    auth: false,
    tags: ["auth"],
    summary: "Trade a code for a session",
    input: auth.VerifyCodeInput,
    output: auth.AuthTokens,
  }),
  "auth.refresh": route({
    method: "POST",
    path: "/auth/refresh",
    auth: false,
    tags: ["auth"],
    summary: "Rotate the session's token pair",
    input: auth.RefreshInput,
    output: auth.AuthTokens,
  }),
  "auth.logout": route({
    method: "POST",
    path: "/auth/logout",
    auth: false,
    tags: ["auth"],
    summary: "Revoke the session",
    input: auth.LogoutInput,
    output: auth.LogoutResult,
  }),
  "auth.firebase": route({
    method: "POST",
    path: "/auth/firebase",
    auth: false,
    tags: ["auth"],
    summary: "Trade a Firebase ID token for a session (AUTH_PROVIDER=firebase)",
    input: auth.FirebaseSignInInput,
    output: auth.AuthTokens,
  }),
  "config.public": route({
    method: "GET",
    path: "/config",
    auth: false,
    tags: ["ops"],
    summary: "The client's configuration: auth and payment providers, public keys",
    output: auth.PublicConfig,
  }),
  "users.me": route({
    method: "GET",
    path: "/users/me",
    auth: true,
    tags: ["users"],
    summary: "The signed-in student's own profile",
    output: MeUser,
  }),
  "users.update": route({
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
    output: sms.SmsSettings,
  }),
  "users.setSms": route({
    method: "PUT",
    path: "/users/sms-settings",
    auth: true,
    tags: ["users"],
    summary: "Turn vote notifications by SMS on or off (recorded as consent)",
    input: sms.SetSmsInput,
    output: sms.SmsSettings,
  }),
  "schoolEmail.sendCode": route({
    method: "POST",
    path: "/users/school-email/send-code",
    auth: true,
    tags: ["users"],
    summary: "E-mail a 6-digit code to a school address of the student's school",
    input: schoolEmail.SendSchoolEmailCodeInput,
    output: schoolEmail.SendSchoolEmailCodeResult,
  }),
  "schoolEmail.verify": route({
    method: "POST",
    path: "/users/school-email/verify",
    auth: true,
    tags: ["users"],
    summary: "Prove membership of the school with the e-mailed code; the address becomes the student's",
    input: schoolEmail.VerifySchoolEmailInput,
    output: MeUser,
  }),
  "push.subscribe": route({
    method: "PUT",
    path: "/push/subscription",
    auth: true,
    tags: ["users"],
    summary: "Store this device's Web Push subscription: vote notices come here instead of by text",
    input: push.PushSubscriptionInput,
    output: push.PushDeviceState,
  }),
  "push.unsubscribe": route({
    method: "POST",
    path: "/push/unsubscribe",
    auth: true,
    tags: ["users"],
    summary: "Remove this device's Web Push subscription",
    input: push.PushUnsubscribeInput,
    output: push.PushDeviceState,
  }),
  "schools.list": route({
    method: "GET",
    path: "/schools",
    auth: false,
    tags: ["schools"],
    summary: "Every school a student can join",
    output: SchoolList,
  }),
  "prompts.unauthenticated": route({
    method: "GET",
    path: "/prompts/unauthenticated",
    auth: false,
    tags: ["rounds"],
    summary: "A preview round for visitors",
    input: prompts.UnauthenticatedPromptInput,
    output: prompts.PromptResponse,
  }),
  "prompts.random": route({
    method: "GET",
    path: "/prompts/random",
    auth: true,
    tags: ["rounds"],
    summary: "Open the next round (skip=true skips the open one)",
    input: prompts.RandomPromptInput,
    output: prompts.PromptResponse,
  }),
  "votes.store": route({
    method: "POST",
    path: "/votes/store",
    auth: true,
    tags: ["rounds"],
    summary: "Vote for a candidate of the open round",
    input: prompts.StoreVoteInput,
    output: prompts.VoteResult,
  }),
  "votes.forUser": route({
    method: "GET",
    path: "/votes/for-user",
    auth: true,
    tags: ["votes"],
    summary: "Votes received, newest first",
    input: votes.VotesForUserInput,
    output: votes.VotesPage,
  }),
  "unlocks.unlockUser": route({
    method: "POST",
    path: "/unlocks/unlock-user",
    auth: true,
    tags: ["votes"],
    summary: "Spend a credit to reveal the voter behind a vote card",
    input: votes.UnlockUserInput,
    output: votes.UnlockResult,
  }),
  "payments.createPaymentIntent": route({
    method: "POST",
    path: "/payments/create-payment-intent",
    auth: true,
    tags: ["payments"],
    summary: "Start paying for a product",
    input: payments.CreatePaymentIntentInput,
    output: payments.CreatePaymentIntentResult,
  }),
  "payments.flashSale": route({
    method: "POST",
    path: "/payments/flash-sale",
    auth: true,
    tags: ["payments"],
    summary: "The caller's flash sale on one unlock, started the first time it is offered",
    output: payments.FlashSaleOffer,
  }),
  "payments.localConfirm": route({
    method: "POST",
    path: "/payments/local/confirm",
    auth: true,
    tags: ["payments"],
    summary: "Confirm a payment with a test card (local provider)",
    input: payments.LocalConfirmInput,
    output: payments.LocalConfirmResult,
  }),
  "payments.history": route({
    method: "GET",
    path: "/payments/history",
    auth: true,
    tags: ["payments"],
    summary: "The student's own purchases",
    output: payments.PaymentHistory,
  }),
  "safety.block": route({
    method: "POST",
    path: "/safety/block",
    auth: true,
    tags: ["safety"],
    summary: "Block a candidate or the voter behind an unlocked vote card: neither sees the other again",
    input: safety.BlockInput,
    output: safety.OkResult,
  }),
  "safety.unblock": route({
    method: "POST",
    path: "/safety/unblock",
    auth: true,
    tags: ["safety"],
    summary: "Undo a block",
    input: safety.UnblockInput,
    output: safety.OkResult,
  }),
  "safety.blocks": route({
    method: "GET",
    path: "/safety/blocks",
    auth: true,
    tags: ["safety"],
    summary: "The students the caller blocked",
    output: safety.BlockedStudents,
  }),
  "safety.report": route({
    method: "POST",
    path: "/safety/report",
    auth: true,
    tags: ["safety"],
    summary: "Report a student to the moderators",
    input: safety.ReportInput,
    output: safety.OkResult,
  }),
  "account.setPaused": route({
    method: "POST",
    path: "/users/pause",
    auth: true,
    tags: ["users"],
    summary: "Pause or resume the profile (a paused profile is never shown as a candidate)",
    input: safety.SetPausedInput,
    output: MeUser,
  }),
  "account.setPreview": route({
    method: "POST",
    path: "/users/preview",
    auth: true,
    tags: ["users"],
    summary: "Opt in or out of the public landing preview",
    input: safety.SetPreviewInput,
    output: MeUser,
  }),
  "account.delete": route({
    method: "POST",
    path: "/users/delete-account",
    auth: true,
    tags: ["users"],
    summary: "Delete the account and everything about it, at once",
    input: safety.DeleteAccountInput,
    output: safety.OkResult,
  }),
  "account.export": route({
    method: "GET",
    path: "/users/export",
    auth: true,
    tags: ["users"],
    summary: "Everything stored about the caller, as JSON",
    output: z.record(z.string(), z.unknown()),
  }),
  "dev.smsOutbox": route({
    method: "GET",
    path: "/dev/sms-outbox",
    auth: false,
    tags: ["dev"],
    summary: "Messages the outbox SMS provider stored for one phone (development only)",
    input: dev.SmsOutboxInput,
    output: dev.SmsOutbox,
    devOnly: true,
  }),
  "dev.emailOutbox": route({
    method: "GET",
    path: "/dev/email-outbox",
    auth: false,
    tags: ["dev"],
    summary: "Messages the outbox e-mail provider stored for one address (development only)",
    input: schoolEmail.EmailOutboxInput,
    output: schoolEmail.EmailOutbox,
    devOnly: true,
  }),
  "admin.reviewQueue": route({
    auth: "moderator",
    tags: ["admin"],
    summary: "Held and reported students, for review",
    output: admin.ReviewQueue,
  }),
  "admin.auditTrail": route({
    auth: "moderator",
    tags: ["admin"],
    summary: "The moderators' recent actions",
    output: admin.AuditTrail,
  }),
  "admin.restore": route({
    auth: "moderator",
    tags: ["admin"],
    summary: "Lift a hold: the student is shown again",
    input: admin.AdminTargetInput,
    output: safety.OkResult,
  }),
  "admin.removeProfile": route({
    auth: "moderator",
    tags: ["admin"],
    summary: "Delete a student's account",
    input: admin.AdminTargetInput,
    output: safety.OkResult,
  }),
  "admin.removePhoto": route({
    auth: "moderator",
    tags: ["admin"],
    summary: "Remove a student's photo",
    input: admin.AdminTargetInput,
    output: safety.OkResult,
  }),
} as const satisfies Record<string, EndpointDef>;

export type RouteName = keyof typeof routes;
/** The REST routes: every row with a path, its key as its procedure. */
export const routeList: readonly RouteDef[] = Object.entries(routes as Record<string, EndpointDef>).flatMap(
  ([procedure, def]) =>
    def.method && def.path && typeof def.auth === "boolean"
      ? [{ ...def, method: def.method, path: def.path, auth: def.auth, procedure }]
      : [],
);

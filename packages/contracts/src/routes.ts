import { z } from "zod";
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
 * The REST route table: every documented path under /api, the tRPC
 * procedure it calls, whether it needs a session, and its schemas. The
 * server's REST adapter and OpenAPI document are generated from it; a
 * route whose procedure does not exist yet is simply not mounted.
 */
export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface RouteDef {
  method: HttpMethod;
  /** Path below /api. */
  path: string;
  /** Dotted tRPC procedure path, e.g. "users.me". */
  procedure: string;
  auth: boolean;
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

const route = <R extends RouteDef>(def: R) => def;

export const routes = {
  health: route({
    method: "GET",
    path: "/health",
    procedure: "health",
    auth: false,
    tags: ["ops"],
    summary: "Answers when the server and its database do",
    output: dev.Health,
  }),
  "auth.sendCode": route({
    method: "POST",
    path: "/auth/send-code",
    procedure: "auth.sendCode",
    auth: false,
    tags: ["auth"],
    summary: "Send a 6-digit sign-in code by SMS",
    input: auth.SendCodeInput,
    output: auth.SendCodeResult,
  }),
  "auth.verifyCode": route({
    method: "POST",
    path: "/auth/verify-code",
    procedure: "auth.verifyCode",
    auth: false,
    tags: ["auth"],
    summary: "Trade a code for a session",
    input: auth.VerifyCodeInput,
    output: auth.AuthTokens,
  }),
  "auth.refresh": route({
    method: "POST",
    path: "/auth/refresh",
    procedure: "auth.refresh",
    auth: false,
    tags: ["auth"],
    summary: "Rotate the session's token pair",
    input: auth.RefreshInput,
    output: auth.AuthTokens,
  }),
  "auth.logout": route({
    method: "POST",
    path: "/auth/logout",
    procedure: "auth.logout",
    auth: false,
    tags: ["auth"],
    summary: "Revoke the session",
    input: auth.LogoutInput,
    output: auth.LogoutResult,
  }),
  "auth.firebase": route({
    method: "POST",
    path: "/auth/firebase",
    procedure: "auth.firebase",
    auth: false,
    tags: ["auth"],
    summary: "Trade a Firebase ID token for a session (AUTH_PROVIDER=firebase)",
    input: auth.FirebaseSignInInput,
    output: auth.AuthTokens,
  }),
  "config.public": route({
    method: "GET",
    path: "/config",
    procedure: "config.public",
    auth: false,
    tags: ["ops"],
    summary: "The client's configuration: auth and payment providers, public keys",
    output: auth.PublicConfig,
  }),
  "users.me": route({
    method: "GET",
    path: "/users/me",
    procedure: "users.me",
    auth: true,
    tags: ["users"],
    summary: "The signed-in student's own profile",
    output: MeUser,
  }),
  "users.update": route({
    method: "PATCH",
    path: "/users/update",
    procedure: "users.update",
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
    procedure: "users.smsSettings",
    auth: true,
    tags: ["users"],
    summary: "Whether vote notifications are texted to the signed-in phone",
    output: sms.SmsSettings,
  }),
  "users.setSms": route({
    method: "PUT",
    path: "/users/sms-settings",
    procedure: "users.setSms",
    auth: true,
    tags: ["users"],
    summary: "Turn vote notifications by SMS on or off (recorded as consent)",
    input: sms.SetSmsInput,
    output: sms.SmsSettings,
  }),
  "schoolEmail.sendCode": route({
    method: "POST",
    path: "/users/school-email/send-code",
    procedure: "schoolEmail.sendCode",
    auth: true,
    tags: ["users"],
    summary: "E-mail a 6-digit code to a school address of the student's school",
    input: schoolEmail.SendSchoolEmailCodeInput,
    output: schoolEmail.SendSchoolEmailCodeResult,
  }),
  "schoolEmail.verify": route({
    method: "POST",
    path: "/users/school-email/verify",
    procedure: "schoolEmail.verify",
    auth: true,
    tags: ["users"],
    summary: "Prove membership of the school with the e-mailed code; the address becomes the student's",
    input: schoolEmail.VerifySchoolEmailInput,
    output: MeUser,
  }),
  "push.subscribe": route({
    method: "PUT",
    path: "/push/subscription",
    procedure: "push.subscribe",
    auth: true,
    tags: ["users"],
    summary: "Store this device's Web Push subscription: vote notices come here instead of by text",
    input: push.PushSubscriptionInput,
    output: push.PushDeviceState,
  }),
  "push.unsubscribe": route({
    method: "POST",
    path: "/push/unsubscribe",
    procedure: "push.unsubscribe",
    auth: true,
    tags: ["users"],
    summary: "Remove this device's Web Push subscription",
    input: push.PushUnsubscribeInput,
    output: push.PushDeviceState,
  }),
  "schools.list": route({
    method: "GET",
    path: "/schools",
    procedure: "schools.list",
    auth: false,
    tags: ["schools"],
    summary: "Every school a student can join",
    output: SchoolList,
  }),
  "prompts.unauthenticated": route({
    method: "GET",
    path: "/prompts/unauthenticated",
    procedure: "prompts.unauthenticated",
    auth: false,
    tags: ["rounds"],
    summary: "A preview round for visitors",
    input: prompts.UnauthenticatedPromptInput,
    output: prompts.PromptResponse,
  }),
  "prompts.random": route({
    method: "GET",
    path: "/prompts/random",
    procedure: "prompts.random",
    auth: true,
    tags: ["rounds"],
    summary: "Open the next round (skip=true skips the open one)",
    input: prompts.RandomPromptInput,
    output: prompts.PromptResponse,
  }),
  "votes.store": route({
    method: "POST",
    path: "/votes/store",
    procedure: "votes.store",
    auth: true,
    tags: ["rounds"],
    summary: "Vote for a candidate of the open round",
    input: prompts.StoreVoteInput,
    output: prompts.VoteResult,
  }),
  "votes.forUser": route({
    method: "GET",
    path: "/votes/for-user",
    procedure: "votes.forUser",
    auth: true,
    tags: ["votes"],
    summary: "Votes received, newest first",
    input: votes.VotesForUserInput,
    output: votes.VotesPage,
  }),
  "unlocks.unlockUser": route({
    method: "POST",
    path: "/unlocks/unlock-user",
    procedure: "unlocks.unlockUser",
    auth: true,
    tags: ["votes"],
    summary: "Spend a credit to reveal the voter behind a vote card",
    input: votes.UnlockUserInput,
    output: votes.UnlockResult,
  }),
  "payments.createPaymentIntent": route({
    method: "POST",
    path: "/payments/create-payment-intent",
    procedure: "payments.createPaymentIntent",
    auth: true,
    tags: ["payments"],
    summary: "Start paying for a product",
    input: payments.CreatePaymentIntentInput,
    output: payments.CreatePaymentIntentResult,
  }),
  "payments.flashSale": route({
    method: "POST",
    path: "/payments/flash-sale",
    procedure: "payments.flashSale",
    auth: true,
    tags: ["payments"],
    summary: "The caller's flash sale on one unlock, started the first time it is offered",
    output: payments.FlashSaleOffer,
  }),
  "payments.localConfirm": route({
    method: "POST",
    path: "/payments/local/confirm",
    procedure: "payments.localConfirm",
    auth: true,
    tags: ["payments"],
    summary: "Confirm a payment with a test card (local provider)",
    input: payments.LocalConfirmInput,
    output: payments.LocalConfirmResult,
  }),
  "payments.history": route({
    method: "GET",
    path: "/payments/history",
    procedure: "payments.history",
    auth: true,
    tags: ["payments"],
    summary: "The student's own purchases",
    output: payments.PaymentHistory,
  }),
  "safety.block": route({
    method: "POST",
    path: "/safety/block",
    procedure: "safety.block",
    auth: true,
    tags: ["safety"],
    summary: "Block a candidate or the voter behind an unlocked vote card: neither sees the other again",
    input: safety.BlockInput,
    output: safety.OkResult,
  }),
  "safety.unblock": route({
    method: "POST",
    path: "/safety/unblock",
    procedure: "safety.unblock",
    auth: true,
    tags: ["safety"],
    summary: "Undo a block",
    input: safety.UnblockInput,
    output: safety.OkResult,
  }),
  "safety.blocks": route({
    method: "GET",
    path: "/safety/blocks",
    procedure: "safety.blocks",
    auth: true,
    tags: ["safety"],
    summary: "The students the caller blocked",
    output: safety.BlockedStudents,
  }),
  "safety.report": route({
    method: "POST",
    path: "/safety/report",
    procedure: "safety.report",
    auth: true,
    tags: ["safety"],
    summary: "Report a student to the moderators",
    input: safety.ReportInput,
    output: safety.OkResult,
  }),
  "account.setPaused": route({
    method: "POST",
    path: "/users/pause",
    procedure: "account.setPaused",
    auth: true,
    tags: ["users"],
    summary: "Pause or resume the profile (a paused profile is never shown as a candidate)",
    input: safety.SetPausedInput,
    output: MeUser,
  }),
  "account.setPreview": route({
    method: "POST",
    path: "/users/preview",
    procedure: "account.setPreview",
    auth: true,
    tags: ["users"],
    summary: "Opt in or out of the public landing preview",
    input: safety.SetPreviewInput,
    output: MeUser,
  }),
  "account.delete": route({
    method: "POST",
    path: "/users/delete-account",
    procedure: "account.delete",
    auth: true,
    tags: ["users"],
    summary: "Delete the account and everything about it, at once",
    input: safety.DeleteAccountInput,
    output: safety.OkResult,
  }),
  "account.export": route({
    method: "GET",
    path: "/users/export",
    procedure: "account.export",
    auth: true,
    tags: ["users"],
    summary: "Everything stored about the caller, as JSON",
    output: z.record(z.string(), z.unknown()),
  }),
  "dev.smsOutbox": route({
    method: "GET",
    path: "/dev/sms-outbox",
    procedure: "dev.smsOutbox",
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
    procedure: "dev.emailOutbox",
    auth: false,
    tags: ["dev"],
    summary: "Messages the outbox e-mail provider stored for one address (development only)",
    input: schoolEmail.EmailOutboxInput,
    output: schoolEmail.EmailOutbox,
    devOnly: true,
  }),
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routes;
export const routeList: readonly RouteDef[] = Object.values(routes);

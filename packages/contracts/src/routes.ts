import { z } from "zod";
import * as account from "./account";
import * as admin from "./admin";
import * as auth from "./auth";
import * as dev from "./dev";
import * as inbox from "./inbox";
import * as live from "./live";
import * as payments from "./payments";
import * as push from "./push";
import * as rounds from "./rounds";
import * as sms from "./sms";
import { OkResult } from "./common";
import { SchoolList } from "./schools";
import { MeUser, UpdateUserResult } from "./users";
import { ProfileUpdateSchema } from "./validation";
import * as safety from "./safety";
import * as schoolEmail from "./school-email";

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
  /**
   * A write: the per-student and per-address write limits (docs/product.md "Limits"), counted under
   * the procedure's path (`true`) or under the bucket named, for procedures that share one. Every
   * mutation has one; the server's write-limits test holds every mutation of the router to it.
   */
  writeLimit?: true | string;
  /**
   * A stream of events (a tRPC subscription; REST answers text/event-stream):
   * `output` is the schema of each event. Not in `routeList`, whose sweeps
   * read one answer per request; `streamRouteList` has them.
   */
  stream?: true;
  /**
   * REST only: the route's query, with a boolean `param` that, when true,
   * sends the request to procedure `to` instead (same output). For a
   * documented path that always served two actions: `GET /prompts/random?skip=true`
   * skips over REST, where tRPC has a mutation of its own.
   */
  restSwitch?: { query: z.ZodType<Record<string, unknown>>; param: string; to: string };
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
  "health.status": route({
    method: "GET",
    path: "/health",
    auth: false,
    tags: ["ops"],
    summary: "Answers when the server and its database do",
    output: dev.Health,
  }),
  "health.live": route({
    method: "GET",
    path: "/health/live",
    auth: false,
    tags: ["ops"],
    summary: "Liveness: the process answers (no database call)",
    output: dev.Liveness,
  }),
  "health.ready": route({
    method: "GET",
    path: "/health/ready",
    auth: false,
    tags: ["ops"],
    summary: "Readiness: database reachable, migrations applied, not shutting down (503 otherwise)",
    output: dev.Readiness,
  }),
  "auth.sendCode": route({
    writeLimit: true,
    method: "POST",
    path: "/auth/send-code",
    auth: false,
    tags: ["auth"],
    summary: "Send a 6-digit sign-in code by SMS",
    input: auth.SendCodeInput,
    output: auth.SendCodeResult,
  }),
  "auth.verifyCode": route({
    writeLimit: true,
    method: "POST",
    path: "/auth/verify-code",
    auth: false,
    tags: ["auth"],
    summary: "Trade a code for a session",
    input: auth.VerifyCodeInput,
    output: auth.AuthTokens,
  }),
  "auth.refresh": route({
    writeLimit: true,
    method: "POST",
    path: "/auth/refresh",
    auth: false,
    tags: ["auth"],
    summary: "Rotate the session's token pair",
    input: auth.RefreshInput,
    output: auth.AuthTokens,
  }),
  "auth.logout": route({
    writeLimit: true,
    method: "POST",
    path: "/auth/logout",
    auth: false,
    tags: ["auth"],
    summary: "Revoke the session",
    input: auth.LogoutInput,
    output: auth.LogoutResult,
  }),
  "auth.firebase": route({
    writeLimit: true,
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
    output: sms.SmsSettings,
  }),
  "users.setSms": route({
    writeLimit: true,
    method: "PUT",
    path: "/users/sms-settings",
    auth: true,
    tags: ["users"],
    summary: "Turn vote notifications by SMS on or off (recorded as consent)",
    input: sms.SetSmsInput,
    output: sms.SmsSettings,
  }),
  "schoolEmail.sendCode": route({
    writeLimit: true,
    method: "POST",
    path: "/users/school-email/send-code",
    auth: true,
    tags: ["users"],
    summary: "E-mail a 6-digit code to a school address of the student's school",
    input: schoolEmail.SendSchoolEmailCodeInput,
    output: schoolEmail.SendSchoolEmailCodeResult,
  }),
  "schoolEmail.verify": route({
    writeLimit: true,
    method: "POST",
    path: "/users/school-email/verify",
    auth: true,
    tags: ["users"],
    summary: "Prove membership of the school with the e-mailed code; the address becomes the student's",
    input: schoolEmail.VerifySchoolEmailInput,
    output: MeUser,
  }),
  "push.subscribe": route({
    writeLimit: true,
    method: "PUT",
    path: "/push/subscription",
    auth: true,
    tags: ["users"],
    summary: "Store this device's Web Push subscription: vote notices come here instead of by text",
    input: push.PushSubscriptionInput,
    output: push.PushDeviceState,
  }),
  "push.unsubscribe": route({
    writeLimit: true,
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
  "rounds.preview": route({
    method: "GET",
    path: "/prompts/unauthenticated",
    auth: false,
    tags: ["rounds"],
    summary: "A preview round for visitors",
    input: rounds.PreviewRoundInput,
    output: rounds.RoundResponse,
  }),
  "rounds.open": route({
    method: "GET",
    path: "/prompts/random",
    auth: true,
    tags: ["rounds"],
    summary: "The open round, or the next one (skip=true skips the open one first)",
    output: rounds.RoundResponse,
    restSwitch: { query: rounds.OpenRoundQuery, param: "skip", to: "rounds.skip" },
  }),
  "rounds.skip": route({
    writeLimit: true,
    auth: true,
    tags: ["rounds"],
    summary: "Skip the open round and open the next (REST: GET /prompts/random?skip=true)",
    output: rounds.RoundResponse,
  }),
  "rounds.vote": route({
    writeLimit: true,
    method: "POST",
    path: "/votes/store",
    auth: true,
    tags: ["rounds"],
    summary: "Vote for a candidate of the open round",
    input: rounds.VoteInput,
    output: rounds.VoteResult,
  }),
  "inbox.received": route({
    method: "GET",
    path: "/votes/for-user",
    auth: true,
    tags: ["inbox"],
    summary: "Votes received, newest first",
    input: inbox.InboxPageInput,
    output: inbox.InboxPage,
  }),
  "inbox.unlock": route({
    writeLimit: true,
    method: "POST",
    path: "/unlocks/unlock-user",
    auth: true,
    tags: ["inbox"],
    summary: "Spend a credit to reveal the voter behind a vote card",
    input: inbox.UnlockInput,
    output: inbox.UnlockResult,
  }),
  "inbox.newVotes": route({
    method: "GET",
    path: "/votes/new-count",
    auth: true,
    tags: ["inbox"],
    summary: "How many votes arrived since the inbox was last opened",
    output: inbox.NewVotes,
  }),
  "inbox.markOpened": route({
    writeLimit: true,
    method: "POST",
    path: "/votes/opened",
    auth: true,
    tags: ["inbox"],
    summary: "Note that the inbox was opened now: the new-votes count starts again from zero",
    input: inbox.MarkOpenedInput,
    output: inbox.NewVotes,
  }),
  "live.events": route({
    method: "GET",
    path: "/live/events",
    auth: true,
    tags: ["live"],
    summary:
      "Events for the open app, as text/event-stream: votes received (the inbox's card), a change of votes or skips left; resumable with Last-Event-ID",
    stream: true,
    input: live.LiveInput,
    output: live.LiveEvent,
  }),
  "payments.createPaymentIntent": route({
    writeLimit: "payments",
    method: "POST",
    path: "/payments/create-payment-intent",
    auth: true,
    tags: ["payments"],
    summary: "Start paying for a product",
    input: payments.CreatePaymentIntentInput,
    output: payments.CreatePaymentIntentResult,
  }),
  "payments.flashSale": route({
    writeLimit: true,
    method: "POST",
    path: "/payments/flash-sale",
    auth: true,
    tags: ["payments"],
    summary: "The caller's flash sale on one unlock, started the first time it is offered",
    output: payments.FlashSaleOffer,
  }),
  "payments.localConfirm": route({
    writeLimit: "payments",
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
    writeLimit: true,
    method: "POST",
    path: "/safety/block",
    auth: true,
    tags: ["safety"],
    summary: "Block a candidate or the voter behind an unlocked vote card: neither sees the other again",
    input: safety.BlockInput,
    output: OkResult,
  }),
  "safety.unblock": route({
    writeLimit: true,
    method: "POST",
    path: "/safety/unblock",
    auth: true,
    tags: ["safety"],
    summary: "Undo a block",
    input: safety.UnblockInput,
    output: OkResult,
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
    writeLimit: true,
    method: "POST",
    path: "/safety/report",
    auth: true,
    tags: ["safety"],
    summary: "Report a student to the moderators",
    input: safety.ReportInput,
    output: OkResult,
  }),
  "account.pause": route({
    writeLimit: true,
    method: "POST",
    path: "/users/pause",
    auth: true,
    tags: ["account"],
    summary: "Pause or resume the profile (a paused profile is never shown as a candidate)",
    input: account.PauseInput,
    output: MeUser,
  }),
  "account.preview": route({
    writeLimit: true,
    method: "POST",
    path: "/users/preview",
    auth: true,
    tags: ["account"],
    summary: "Opt in or out of the public landing preview",
    input: account.PreviewInput,
    output: MeUser,
  }),
  "account.delete": route({
    writeLimit: true,
    method: "POST",
    path: "/users/delete-account",
    auth: true,
    tags: ["account"],
    summary: "Delete the account and everything about it, at once",
    input: account.DeleteAccountInput,
    output: OkResult,
  }),
  "account.export": route({
    method: "GET",
    path: "/users/export",
    auth: true,
    tags: ["account"],
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
    writeLimit: true,
    auth: "moderator",
    tags: ["admin"],
    summary: "Lift a hold: the student is shown again",
    input: admin.AdminTargetInput,
    output: OkResult,
  }),
  "admin.removeProfile": route({
    writeLimit: true,
    auth: "moderator",
    tags: ["admin"],
    summary: "Delete a student's account",
    input: admin.AdminTargetInput,
    output: OkResult,
  }),
  "admin.removePhoto": route({
    writeLimit: true,
    auth: "moderator",
    tags: ["admin"],
    summary: "Remove a student's photo",
    input: admin.AdminTargetInput,
    output: OkResult,
  }),
} as const satisfies Record<string, EndpointDef>;

export type RouteName = keyof typeof routes;
const restRows: readonly RouteDef[] = Object.entries(routes as Record<string, EndpointDef>).flatMap(
  ([procedure, def]) =>
    def.method && def.path && typeof def.auth === "boolean"
      ? [{ ...def, method: def.method, path: def.path, auth: def.auth, procedure }]
      : [],
);
/** The REST routes that answer once: every row with a path but the streams, its key as its procedure. */
export const routeList: readonly RouteDef[] = restRows.filter((route) => !route.stream);
/** The REST routes that answer text/event-stream. */
export const streamRouteList: readonly RouteDef[] = restRows.filter((route) => route.stream);

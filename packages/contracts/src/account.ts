import { z } from "zod";
import { BooleanText } from "./validation";
import { OkResult } from "./common";
import { MeUser } from "./users";
import { type EndpointDef, route } from "./endpoint";

/** A paused profile is never shown as a candidate. */
export const PauseInput = z.object({ paused: BooleanText }).strict();
/** Whether the profile may appear in the landing page's preview rounds. */
export const PreviewInput = z.object({ showInPreview: BooleanText }).strict();
/** Deleting an account is final; the client sends the word the person typed. */
export const DeleteAccountInput = z
  .object({ confirm: z.literal("DELETE", { error: "Type DELETE to confirm" }) })
  .strict();

/** The account procedures' rows of the endpoint table (merged in routes.ts). */
export const accountRoutes = {
  "account.pause": route({
    writeLimit: true,
    method: "POST",
    path: "/users/pause",
    auth: true,
    tags: ["account"],
    summary: "Pause or resume the profile (a paused profile is never shown as a candidate)",
    input: PauseInput,
    output: MeUser,
  }),
  "account.preview": route({
    writeLimit: true,
    method: "POST",
    path: "/users/preview",
    auth: true,
    tags: ["account"],
    summary: "Opt in or out of the public landing preview",
    input: PreviewInput,
    output: MeUser,
  }),
  "account.delete": route({
    writeLimit: true,
    method: "POST",
    path: "/users/delete-account",
    auth: true,
    tags: ["account"],
    summary: "Delete the account and everything about it, at once",
    input: DeleteAccountInput,
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
} as const satisfies Record<`account.${string}`, EndpointDef>;

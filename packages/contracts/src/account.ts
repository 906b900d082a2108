import { z } from "zod";
import { BooleanText } from "./validation";

/** A paused profile is never shown as a candidate. */
export const PauseInput = z.object({ paused: BooleanText }).strict();
/** Whether the profile may appear in the landing page's preview rounds. */
export const PreviewInput = z.object({ showInPreview: BooleanText }).strict();
/** Deleting an account is final; the client sends the word the person typed. */
export const DeleteAccountInput = z
  .object({ confirm: z.literal("DELETE", { error: "Type DELETE to confirm" }) })
  .strict();

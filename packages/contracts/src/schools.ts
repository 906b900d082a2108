import { z } from "zod";
import { MediaUrl, SerialId } from "./common";

export const School = z.object({
  id: SerialId,
  schoolName: z.string(),
  icon: MediaUrl,
  /** Addresses at exactly these domains prove membership (a subdomain only if listed); the first is the school's main one. */
  emailDomains: z.array(z.string()),
});
export type School = z.infer<typeof School>;
export const SchoolList = z.array(School);

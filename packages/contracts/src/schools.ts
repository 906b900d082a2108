import { z } from "zod";
import { MediaUrl, SerialId } from "./common";
import { type EndpointDef, route } from "./endpoint";

export const School = z.object({
  id: SerialId,
  schoolName: z.string(),
  icon: MediaUrl,
  /** Addresses at exactly these domains prove membership (a subdomain only if listed); the first is the school's main one. */
  emailDomains: z.array(z.string()),
});
export type School = z.infer<typeof School>;
export const SchoolList = z.array(School);

/** The schools procedures' rows of the endpoint table (merged in routes.ts). */
export const schoolsRoutes = {
  "schools.list": route({
    method: "GET",
    path: "/schools",
    auth: false,
    tags: ["schools"],
    summary: "Every school a student can join",
    output: SchoolList,
  }),
} as const satisfies Record<`schools.${string}`, EndpointDef>;

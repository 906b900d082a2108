import { z } from "zod";
import { MediaUrl } from "./common";

export const School = z.object({
  id: z.number().int().positive(),
  schoolName: z.string(),
  icon: MediaUrl,
});
export type School = z.infer<typeof School>;
export const SchoolList = z.array(School);

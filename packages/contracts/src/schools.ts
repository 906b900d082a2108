import { z } from "zod";
import { MediaUrl, SerialId } from "./common";

export const School = z.object({
  id: SerialId,
  schoolName: z.string(),
  icon: MediaUrl,
});
export type School = z.infer<typeof School>;
export const SchoolList = z.array(School);

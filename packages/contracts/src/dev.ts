import { z } from "zod";
import { E164PhoneSchema } from "./phone-numbers";
import { IsoDateTime } from "./common";

/**
 * Development SMS outbox, so a person or a browser test reads codes as from a
 * phone: one phone's texts at a time, never every number's sign-in codes.
 */
export const SmsOutboxInput = z.object({ phone: E164PhoneSchema }).strict();
export const SmsOutbox = z.object({
  messages: z.array(z.object({ to: z.string(), body: z.string(), createdAt: IsoDateTime })),
});

export const Health = z.object({ status: z.literal("ok"), database: z.enum(["postgres", "pglite"]) });
/** The process answers: a supervisor restarts it when this stops answering. */
export const Liveness = z.object({ status: z.literal("ok") });
/** Ready for traffic: the database answers, every migration is applied, and the process is not shutting down. */
export const Readiness = z.object({ status: z.literal("ready"), database: z.enum(["postgres", "pglite"]) });

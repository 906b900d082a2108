import { z } from "zod";
import { E164PhoneSchema } from "./phone-numbers";
import { IsoDateTime } from "./common";
import { EmailOutbox, EmailOutboxInput } from "./school-email";
import { type EndpointDef, route } from "./endpoint";

/**
 * Development SMS outbox, so a person or a browser test reads codes as from a
 * phone: one phone's texts at a time, never every number's sign-in codes.
 */
export const SmsOutboxInput = z.object({ phone: E164PhoneSchema }).strict();
export const SmsOutbox = z.object({
  messages: z.array(z.object({ to: z.string(), body: z.string(), createdAt: IsoDateTime })),
});

/** The dev procedures' rows of the endpoint table (merged in routes.ts). */
export const devRoutes = {
  "dev.smsOutbox": route({
    method: "GET",
    path: "/dev/sms-outbox",
    auth: false,
    tags: ["dev"],
    summary: "Messages the outbox SMS provider stored for one phone (development only)",
    input: SmsOutboxInput,
    output: SmsOutbox,
    devOnly: true,
  }),
  "dev.emailOutbox": route({
    method: "GET",
    path: "/dev/email-outbox",
    auth: false,
    tags: ["dev"],
    summary: "Messages the outbox e-mail provider stored for one address (development only)",
    input: EmailOutboxInput,
    output: EmailOutbox,
    devOnly: true,
  }),
} as const satisfies Record<`dev.${string}`, EndpointDef>;

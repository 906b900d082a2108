import { z } from "zod";
import { type EndpointDef, route } from "./endpoint";

/** What the web client needs to know about the server's configuration; nothing secret. */
export const PublicConfig = z.object({
  authProvider: z.enum(["local", "firebase"]),
  firebase: z
    .object({ apiKey: z.string(), authDomain: z.string(), projectId: z.string(), appId: z.string().optional() })
    .nullable(),
  paymentProvider: z.enum(["local", "stripe"]),
  stripePublishableKey: z.string().nullable(),
  /** The VAPID public key browsers subscribe with; null when push is off on this server. */
  vapidPublicKey: z.string().nullable(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;

/** The config procedures' rows of the endpoint table (merged in routes.ts). */
export const configRoutes = {
  "config.public": route({
    method: "GET",
    path: "/config",
    auth: false,
    tags: ["ops"],
    summary: "The client's configuration: auth and payment providers, public keys",
    output: PublicConfig,
  }),
} as const satisfies Record<`config.${string}`, EndpointDef>;

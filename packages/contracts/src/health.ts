import { z } from "zod";
import { type EndpointDef, route } from "./endpoint";

export const Health = z.object({ status: z.literal("ok"), database: z.enum(["postgres", "pglite"]) });
/** The process answers: a supervisor restarts it when this stops answering. */
export const Liveness = z.object({ status: z.literal("ok") });
/** Ready for traffic: the database answers, every migration is applied, and the process is not shutting down. */
export const Readiness = z.object({ status: z.literal("ready"), database: z.enum(["postgres", "pglite"]) });

/** The health procedures' rows of the endpoint table (merged in routes.ts). */
export const healthRoutes = {
  "health.status": route({
    method: "GET",
    path: "/health",
    auth: false,
    tags: ["ops"],
    summary: "Answers when the server and its database do",
    output: Health,
  }),
  "health.live": route({
    method: "GET",
    path: "/health/live",
    auth: false,
    tags: ["ops"],
    summary: "Liveness: the process answers (no database call)",
    output: Liveness,
  }),
  "health.ready": route({
    method: "GET",
    path: "/health/ready",
    auth: false,
    tags: ["ops"],
    summary: "Readiness: database reachable, migrations applied, not shutting down (503 otherwise)",
    output: Readiness,
  }),
} as const satisfies Record<`health.${string}`, EndpointDef>;

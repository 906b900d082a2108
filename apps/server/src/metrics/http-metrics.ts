import type { FastifyInstance, FastifyRequest } from "fastify";
import { httpDuration, httpRequests } from "./registry";

const TRPC_ROUTE = "/api/trpc/:path";
/** Methods counted by name; any other is "other", so a client cannot add series by inventing one. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Counts and times every answer by route: the route's pattern as Fastify
 * matched it (`/api/media/*`, not the file asked for), a tRPC call by its
 * procedure (each call of a batch under its own, a name the router lacks as
 * "unknown"), and no route as "unmatched"; by method, from a fixed set; by
 * exact status and by its class. The calls of a batch share its answer's
 * status: tRPC answers 207 when they differ.
 */
export function registerHttpMetrics(app: FastifyInstance, procedures: ReadonlySet<string>): void {
  const procedureRoute = (path: string) => (procedures.has(path) ? `trpc:${path}` : "trpc:unknown");
  const routesOf = (request: FastifyRequest): string[] => {
    const pattern = request.routeOptions.url;
    if (pattern === undefined) return ["unmatched"];
    if (pattern !== TRPC_ROUTE) return [pattern];
    const path = (request.params as { path?: string }).path ?? "";
    return path.split(",").map(procedureRoute);
  };
  app.addHook("onResponse", (request, reply, done) => {
    const method = METHODS.has(request.method) ? request.method : "other";
    const status = String(reply.statusCode);
    const statusClass = `${Math.floor(reply.statusCode / 100)}xx`;
    const seconds = reply.elapsedTime / 1000;
    for (const route of routesOf(request)) {
      httpRequests.inc({ method, route, status, status_class: statusClass });
      httpDuration.observe({ method, route, status_class: statusClass }, seconds);
    }
    done();
  });
}

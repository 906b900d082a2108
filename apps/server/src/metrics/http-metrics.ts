import type { FastifyInstance, FastifyRequest } from "fastify";
import { httpDuration, httpRequests } from "./registry";

const TRPC_ROUTE = "/api/trpc/:path";

/**
 * Counts and times every answer by route: the route's pattern as Fastify
 * matched it (`/api/media/*`, not the file asked for), a tRPC call by its
 * procedure (a batch as "batch", a name the router lacks as "unknown"),
 * and no route as "unmatched".
 */
export function registerHttpMetrics(app: FastifyInstance, procedures: ReadonlySet<string>): void {
  const routeOf = (request: FastifyRequest): string => {
    const pattern = request.routeOptions.url;
    if (pattern === undefined) return "unmatched";
    if (pattern !== TRPC_ROUTE) return pattern;
    const path = (request.params as { path?: string }).path ?? "";
    if (path.includes(",")) return "trpc:batch";
    return procedures.has(path) ? `trpc:${path}` : "trpc:unknown";
  };
  app.addHook("onResponse", (request, reply, done) => {
    const labels = {
      method: request.method,
      route: routeOf(request),
      status_class: `${Math.floor(reply.statusCode / 100)}xx`,
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}

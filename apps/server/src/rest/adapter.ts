import { routeList, type RouteDef } from "@quad/contracts";
import { callTRPCProcedure, type AnyRouter, type AnyTRPCProcedure } from "@trpc/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Context } from "../trpc/context";
import { errorResponse } from "../http/error-body";

export interface RestAdapterOptions {
  router: AnyRouter;
  createContext: (request: FastifyRequest) => Promise<Context>;
  /** Serve routes flagged devOnly. */
  devRoutesEnabled: boolean;
}

/**
 * Mounts every route of the contracts table whose procedure exists, at
 * /api<path>. Thin on purpose: the procedure parses the input with the same
 * contracts schema and holds the rules; this only moves JSON in and out.
 * Multipart routes are registered by their own module.
 */
export function registerRestRoutes(app: FastifyInstance, opts: RestAdapterOptions): RouteDef[] {
  const procedures = opts.router._def.procedures as Record<string, unknown>;
  const mounted = routeList.filter(
    (route) => route.procedure in procedures && !route.multipart && (!route.devOnly || opts.devRoutesEnabled),
  );
  for (const route of mounted) {
    // tRPC's own call (as createCaller makes, without building a caller proxy per request).
    const type = (procedures[route.procedure] as AnyTRPCProcedure)._def.type;
    app.route({
      method: route.method,
      url: `/api${route.path}`,
      handler: async (request, reply) => {
        const ctx = await opts.createContext(request);
        const input = route.method === "GET" ? request.query : request.body;
        try {
          const result = await callTRPCProcedure({
            router: opts.router,
            path: route.procedure,
            getRawInput: async () => input,
            ctx,
            type,
            signal: undefined,
            batchIndex: 0,
          });
          return reply.send(result ?? null);
        } catch (error) {
          const { status, body } = errorResponse(error);
          if (status === 500) request.log.error({ err: error, procedure: route.procedure }, "procedure failed");
          if (body.retryAfterSeconds) reply.header("retry-after", String(body.retryAfterSeconds));
          return reply.code(status).send(body);
        }
      },
    });
  }
  return mounted;
}

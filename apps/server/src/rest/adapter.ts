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
  const typeOf = (path: string) => (procedures[path] as AnyTRPCProcedure)._def.type;
  for (const route of mounted) {
    app.route({
      method: route.method,
      url: `/api${route.path}`,
      handler: async (request, reply) => {
        const ctx = await opts.createContext(request);
        try {
          const { path, input } = procedureCall(
            route,
            route.method === "GET" ? request.query : request.body,
            request.method === "HEAD",
          );
          // tRPC's own call (as createCaller makes, without building a caller proxy per request).
          const result = await callTRPCProcedure({
            router: opts.router,
            path,
            getRawInput: async () => input,
            ctx,
            type: typeOf(path),
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

/**
 * The procedure a request goes to: the route's own, or its switch's when the switch's flag is set.
 * Not for HEAD, which Fastify serves with the GET route's handler: a safe method whose answer
 * nobody reads must not spend anything (a skip), so it stays on the route's own procedure.
 */
function procedureCall(route: RouteDef, input: unknown, head: boolean): { path: string; input: unknown } {
  if (!route.restSwitch) return { path: route.procedure, input };
  const { query, param, to } = route.restSwitch;
  const { [param]: flag, ...rest } = query.parse(input);
  return {
    path: flag === true && !head ? to : route.procedure,
    input: Object.keys(rest).length > 0 ? rest : undefined,
  };
}

import { accountRoutes } from "./account";
import { adminRoutes } from "./admin";
import { authRoutes } from "./auth";
import { configRoutes } from "./config";
import { devRoutes } from "./dev";
import type { EndpointDef, RouteDef } from "./endpoint";
import { healthRoutes } from "./health";
import { inboxRoutes } from "./inbox";
import { liveRoutes } from "./live";
import { paymentsRoutes } from "./payments";
import { pushRoutes } from "./push";
import { roundsRoutes } from "./rounds";
import { safetyRoutes } from "./safety";
import { schoolEmailRoutes } from "./school-email";
import { schoolsRoutes } from "./schools";
import { usersRoutes } from "./users";

export type { EndpointDef, HttpMethod, RouteDef } from "./endpoint";

/**
 * The endpoint table: every tRPC procedure, keyed by its dotted path
 * ("users.me"), with who may call it and its schemas; and, for the ones
 * served as REST too, the method and path under /api. Each domain's
 * contract file holds its own rows beside their schemas (`inboxRoutes` in
 * inbox.ts); this merges them, in this order. The server builds each
 * procedure from its row (apps/server/src/trpc/endpoints.ts), and its REST
 * adapter and OpenAPI document from `routeList`; a route whose procedure
 * does not exist yet is simply not mounted.
 */
export const routes = {
  ...healthRoutes,
  ...authRoutes,
  ...configRoutes,
  ...usersRoutes,
  ...schoolEmailRoutes,
  ...pushRoutes,
  ...schoolsRoutes,
  ...roundsRoutes,
  ...inboxRoutes,
  ...liveRoutes,
  ...paymentsRoutes,
  ...safetyRoutes,
  ...accountRoutes,
  ...devRoutes,
  ...adminRoutes,
} as const satisfies Record<string, EndpointDef>;

export type RouteName = keyof typeof routes;
const restRows: readonly RouteDef[] = Object.entries(routes as Record<string, EndpointDef>).flatMap(
  ([procedure, def]) =>
    def.method && def.path && typeof def.auth === "boolean"
      ? [{ ...def, method: def.method, path: def.path, auth: def.auth, procedure }]
      : [],
);
/** The REST routes that answer once: every row with a path but the streams, its key as its procedure. */
export const routeList: readonly RouteDef[] = restRows.filter((route) => !route.stream);
/** The REST routes that answer text/event-stream. */
export const streamRouteList: readonly RouteDef[] = restRows.filter((route) => route.stream);

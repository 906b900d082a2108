import type { z } from "zod";

/**
 * The shape of a row of the endpoint table. Each domain's contract file
 * writes its procedures' rows beside their schemas; routes.ts merges them.
 */
export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/** One row of the table. */
export interface EndpointDef {
  /** REST method and path below /api; both absent for a tRPC-only procedure. */
  method?: HttpMethod;
  path?: string;
  /** false: anyone; true: a session; "moderator": a session of an admin (tRPC only). */
  auth: boolean | "moderator";
  summary: string;
  tags: string[];
  /** GET inputs come from the query string, others from the JSON body. */
  input?: z.ZodType;
  output: z.ZodType;
  /** The body is multipart/form-data (fields validated by `input`, files beside them). */
  multipart?: boolean;
  /** Not served in production unless explicitly allowed. */
  devOnly?: boolean;
  /**
   * A write: the per-student and per-address write limits (docs/product.md "Limits"), counted under
   * the procedure's path (`true`) or under the bucket named, for procedures that share one. Every
   * mutation has one; the server's write-limits test holds every mutation of the router to it.
   */
  writeLimit?: true | string;
  /**
   * A stream of events (a tRPC subscription; REST answers text/event-stream):
   * `output` is the schema of each event. Not in `routeList`, whose sweeps
   * read one answer per request; `streamRouteList` has them.
   */
  stream?: true;
  /**
   * REST only: the route's query, with a boolean `param` that, when true,
   * sends the request to procedure `to` instead (same output). For a
   * documented path that always served two actions: `GET /prompts/random?skip=true`
   * skips over REST, where tRPC has a mutation of its own.
   */
  restSwitch?: { query: z.ZodType<Record<string, unknown>>; param: string; to: string };
}

/** A REST route: a row with a method and path, named by its procedure (the row's key). */
export interface RouteDef extends EndpointDef {
  method: HttpMethod;
  path: string;
  auth: boolean;
  /** Dotted tRPC procedure path, e.g. "users.me": the row's key. */
  procedure: string;
}

/** Checks a row against EndpointDef and keeps its own type (its literal `auth`, its schemas), which the server's `endpoint()` reads. */
export const route = <R extends EndpointDef>(def: R) => def;

import { http, type HttpHandler } from "msw";
import { initTRPC, TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { ErrorCode } from "@quad/contracts";
import type { AppRouter } from "@quad/server/router";
import type { AnyProcedure, inferProcedureOutput } from "@trpc/server";
import { TRPC_PATH } from "../../lib/http";
import type { ProcedureAt } from "../../lib/refresh-after";

/**
 * MSW helpers that answer the app's tRPC calls by procedure name, through
 * tRPC's own fetch adapter (so batching, inputs, statuses and the error
 * shape are tRPC's, not a copy of them):
 *
 *   server.use(trpcHandler({ "schools.list": () => [school], "users.me": () => trpcError("UNAUTHORIZED") }))
 */

type Procedures = AppRouter["_def"]["record"];

/** Every procedure path of the server's router, e.g. "users.me" or "rounds.vote". */
export type ProcedurePath<R = Procedures, Prefix extends string = ""> = {
  [K in keyof R & string]: R[K] extends AnyProcedure ? `${Prefix}${K}` : ProcedurePath<R[K], `${Prefix}${K}.`>;
}[keyof R & string];

/** What the server's procedure at `P` answers, as the client receives it. */
export type ProcedureOutput<P extends ProcedurePath> = inferProcedureOutput<ProcedureAt<Procedures, P>>;

export interface TrpcCall {
  path: string;
  input: unknown;
  request: Request;
}

/**
 * A canned answer for one procedure, typed by the server's router: a fake
 * that drifts from what the server answers fails to compile.
 */
export type TrpcResolver<P extends ProcedurePath = ProcedurePath> = (
  call: TrpcCall,
) => ProcedureOutput<P> | TrpcErrorResult | Promise<ProcedureOutput<P> | TrpcErrorResult>;
export type TrpcResolvers = { [P in ProcedurePath]?: TrpcResolver<P> };

const TRPC_ERROR = Symbol("trpc-error");

export interface TrpcErrorResult {
  [TRPC_ERROR]: true;
  code: ErrorCode;
  message: string;
  fieldErrors?: Record<string, string[]>;
  /** When a refused write may be tried again (a 429's error data, as the server sends it). */
  retryAfterSeconds?: number;
}

/** Return this from a resolver to answer with a tRPC error. */
export function trpcError(
  code: ErrorCode,
  message: string = code,
  fieldErrors?: Record<string, string[]>,
): TrpcErrorResult {
  return { [TRPC_ERROR]: true, code, message, ...(fieldErrors ? { fieldErrors } : {}) };
}

function isTrpcError(value: unknown): value is TrpcErrorResult {
  return typeof value === "object" && value !== null && TRPC_ERROR in value;
}

const t = initTRPC.context<{ request: Request }>().create({
  isDev: false,
  // What the server adds to tRPC's error data (apps/server/src/trpc/init.ts), from the canned refusal.
  errorFormatter({ shape, error }) {
    const refusal = error.cause as Partial<TrpcErrorResult> | undefined;
    const { fieldErrors, retryAfterSeconds } = refusal ?? {};
    return { ...shape, data: { ...shape.data, fieldErrors, retryAfterSeconds } };
  },
});

/**
 * A router with one procedure per resolver. The request's method says
 * whether the client called queries (GET) or mutations (POST), so each is
 * made that kind; a path without a resolver answers NOT_FOUND.
 */
function routerOf(resolvers: TrpcResolvers, kind: "query" | "mutation") {
  const procedures = Object.entries(resolvers as Record<string, TrpcResolver>).map(([path, resolve]) => {
    const procedure = t.procedure.input((raw: unknown) => raw);
    const answer = async ({ input, ctx }: { input: unknown; ctx: { request: Request } }) => {
      const output = await resolve({ path, input, request: ctx.request });
      if (!isTrpcError(output)) return output;
      throw new TRPCError({ code: output.code, message: output.message, cause: output });
    };
    return [path, kind === "query" ? procedure.query(answer) : procedure.mutation(answer)] as const;
  });
  return t.router(Object.fromEntries(procedures));
}

/** One handler answering every tRPC call. */
export function trpcHandler(resolvers: TrpcResolvers): HttpHandler {
  return http.all(`*${TRPC_PATH}/*`, ({ request }) =>
    fetchRequestHandler({
      endpoint: TRPC_PATH,
      req: request,
      router: routerOf(resolvers, request.method === "GET" ? "query" : "mutation"),
      createContext: () => ({ request }),
    }),
  );
}

/** Answers in turn, one a call; the last again once the others are used. */
export function inTurn<A extends unknown[]>(...answers: A): () => A[number] {
  let next = 0;
  return () => answers[Math.min(next++, answers.length - 1)];
}

/**
 * Wraps canned answers so a test can read what the UI sent: `sent(path)`
 * lists each call's input to that procedure, in order.
 */
export function recording(resolvers: TrpcResolvers) {
  const inputs = new Map<string, unknown[]>();
  const wrapped: Record<string, TrpcResolver> = {};
  for (const [path, resolve] of Object.entries(resolvers) as [string, TrpcResolver][]) {
    wrapped[path] = (call) => {
      inputs.set(path, [...(inputs.get(path) ?? []), call.input]);
      return resolve(call);
    };
  }
  return { resolvers: wrapped as TrpcResolvers, sent: (path: ProcedurePath) => inputs.get(path) ?? [] };
}

import { http, HttpResponse, type HttpHandler } from "msw";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { ERROR_STATUS, type ErrorCode } from "@quad/contracts";
import type { AppRouter } from "@quad/server/router";
import type { AnyProcedure, inferProcedureOutput } from "@trpc/server";

/**
 * MSW helpers that speak tRPC's HTTP protocol (httpBatchLink, no
 * transformer), so tests mock procedures by name:
 *
 *   server.use(trpcHandler({ "schools.list": () => [school], "users.me": () => trpcError("UNAUTHORIZED") }))
 */

type Procedures = AppRouter["_def"]["record"];

/** Every procedure path of the server's router, e.g. "users.me" or "rounds.vote". */
export type ProcedurePath<R = Procedures, Prefix extends string = ""> = {
  [K in keyof R & string]: R[K] extends AnyProcedure ? `${Prefix}${K}` : ProcedurePath<R[K], `${Prefix}${K}.`>;
}[keyof R & string];

type ProcedureAt<R, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof R
    ? ProcedureAt<R[Head], Rest>
    : never
  : P extends keyof R
    ? R[P]
    : never;

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

async function readInputs(request: Request, url: URL): Promise<Record<string, unknown>> {
  if (request.method === "GET") {
    const raw = url.searchParams.get("input");
    return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  }
  const text = await request.text();
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** One handler answering every tRPC call; a procedure without a resolver answers NOT_FOUND. */
export function trpcHandler(resolvers: TrpcResolvers): HttpHandler {
  return http.all("*/api/trpc/:paths", async ({ request, params }) => {
    const url = new URL(request.url);
    const paths = String(params.paths).split(",");
    const batched = url.searchParams.get("batch") === "1";
    const inputs = await readInputs(request, url);

    const results = await Promise.all(
      paths.map(async (path, index) => {
        const resolver = resolvers[path as ProcedurePath] as TrpcResolver | undefined;
        const input = batched ? inputs[String(index)] : inputs;
        const output = resolver
          ? await resolver({ path, input, request })
          : trpcError("NOT_FOUND", `No MSW resolver for ${path}`);
        if (!isTrpcError(output)) return { status: 200, body: { result: { data: output } } };
        const status = ERROR_STATUS[output.code];
        return {
          status,
          body: {
            error: {
              message: output.message,
              code: TRPC_ERROR_CODES_BY_KEY[output.code],
              data: {
                code: output.code,
                httpStatus: status,
                path,
                ...(output.fieldErrors ? { fieldErrors: output.fieldErrors } : {}),
                ...(output.retryAfterSeconds !== undefined ? { retryAfterSeconds: output.retryAfterSeconds } : {}),
              },
            },
          },
        };
      }),
    );

    const statuses = new Set(results.map((r) => r.status));
    const status = statuses.size === 1 ? results[0]!.status : 207;
    return HttpResponse.json(batched ? results.map((r) => r.body) : results[0]!.body, { status });
  });
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

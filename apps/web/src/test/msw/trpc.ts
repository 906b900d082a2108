import { http, HttpResponse, type HttpHandler } from "msw";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { ERROR_STATUS, type ErrorCode } from "@quad/contracts";

/**
 * MSW helpers that speak tRPC's HTTP protocol (httpBatchLink, no
 * transformer), so tests mock procedures by name:
 *
 *   server.use(trpcHandler({ "schools.list": () => [school], "users.me": () => trpcError("UNAUTHORIZED") }))
 */

export interface TrpcCall {
  path: string;
  input: unknown;
  request: Request;
}

export type TrpcResolver = (call: TrpcCall) => unknown;
export type TrpcResolvers = Record<string, TrpcResolver>;

const TRPC_ERROR = Symbol("trpc-error");

export interface TrpcErrorResult {
  [TRPC_ERROR]: true;
  code: ErrorCode;
  message: string;
  fieldErrors?: Record<string, string[]>;
}

/** Return this from a resolver to answer with a tRPC error. */
export function trpcError(code: ErrorCode, message: string = code, fieldErrors?: Record<string, string[]>): TrpcErrorResult {
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
        const resolver = resolvers[path];
        const input = batched ? inputs[String(index)] : inputs;
        const output = resolver ? await resolver({ path, input, request }) : trpcError("NOT_FOUND", `No MSW resolver for ${path}`);
        if (!isTrpcError(output)) return { status: 200, body: { result: { data: output } } };
        const status = ERROR_STATUS[output.code];
        return {
          status,
          body: {
            error: {
              message: output.message,
              code: TRPC_ERROR_CODES_BY_KEY[output.code],
              data: { code: output.code, httpStatus: status, path, ...(output.fieldErrors ? { fieldErrors: output.fieldErrors } : {}) },
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

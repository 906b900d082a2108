import {
  callTRPCProcedure,
  getTRPCErrorFromUnknown,
  getTRPCErrorShape,
  transformTRPCResponse,
  TRPCError,
  type AnyTRPCRouter,
  type inferRouterContext,
} from "@trpc/server";
import { fastifyRequestHandler, type FastifyHandlerOptions } from "@trpc/server/adapters/fastify";
import { getHTTPStatusCode } from "@trpc/server/http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { readSingleCall, type SingleCall } from "./single-call";

export interface TrpcEndpointOptions<TRouter extends AnyTRPCRouter> {
  /** Where the router is served, e.g. /api/trpc. */
  prefix: string;
  router: TRouter;
  /** The router's context for a request; both the direct path and the adapter fallback call it. */
  createContext: (request: FastifyRequest) => Promise<inferRouterContext<TRouter>>;
  maxBatchSize?: number;
  onError?: FastifyHandlerOptions<TRouter, FastifyRequest, FastifyReply>["onError"];
  /**
   * How many seconds an error asks the client to wait, sent as Retry-After
   * (a rate limit, an unavailable database); undefined for none. Both paths
   * use it, so the direct answers and the adapter's carry the same header.
   */
  retryAfterSeconds?: (error: TRPCError) => number | undefined;
}

type Request = FastifyRequest<{ Params: { path: string } }>;

/**
 * Serves a tRPC router over HTTP, answering a single query or mutation
 * (plain or a batch of one: what the web client sends) directly, and
 * handing every other request to the official Fastify adapter.
 *
 * Why (this package's README): the adapter turns each Node
 * request into a Fetch Request (URL, Headers, AbortController, a body
 * stream) and answers a Fetch Response whose body Fastify then pumps
 * through a web stream, chunked; that costs several times what the
 * procedure does. A single call needs none of it: this reads the same wire
 * format, calls the procedure with tRPC's own callProcedure and the same
 * context, and writes the same envelope — result or error shape from the
 * router's errorFormatter, HTTP status from tRPC's getHTTPStatusCode, the
 * same headers — as one JSON string.
 */
export async function registerTrpcEndpoint<TRouter extends AnyTRPCRouter>(
  app: FastifyInstance,
  opts: TrpcEndpointOptions<TRouter>,
): Promise<void> {
  await app.register(async (scope) => {
    // As the official plugin does, in this scope only: bodies reach the handler unparsed,
    // so the adapter (which parses them itself) can still take any request over.
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => done(null, body));
    scope.removeContentTypeParser("multipart/form-data");
    scope.addContentTypeParser("multipart/form-data", {}, (_request, body, done) => done(null, body));

    const adapterOptions = {
      router: opts.router,
      createContext: ({ req }: { req: FastifyRequest }) => opts.createContext(req),
      maxBatchSize: opts.maxBatchSize,
      onError: opts.onError,
      responseMeta: ({ errors }: { errors: TRPCError[] }) => {
        const wait = errors.map((error) => opts.retryAfterSeconds?.(error)).find((seconds) => seconds !== undefined);
        return wait === undefined ? {} : { headers: { "retry-after": String(wait) } };
      },
    } as FastifyHandlerOptions<TRouter, FastifyRequest, FastifyReply>;

    scope.all(`${opts.prefix}/:path`, async (request: Request, reply) => {
      const call = readSingleCall(opts.router, request);
      if (!call) {
        await fastifyRequestHandler({ ...adapterOptions, req: request, res: reply, path: request.params.path });
        return reply;
      }
      const { status, body, retryAfter } = await answer(opts, request, call);
      if (retryAfter !== undefined) reply.header("retry-after", String(retryAfter));
      // The adapter's headers, content type exactly (a Buffer, so Fastify adds no charset);
      // the body goes out with a length instead of chunked.
      return reply
        .code(status)
        .header("vary", "trpc-accept, accept")
        .header("content-type", "application/json")
        .send(Buffer.from(body));
    });
  });
}

/** The procedure's result or error in tRPC's response envelope, as resolveResponse builds it. */
async function answer<TRouter extends AnyTRPCRouter>(
  opts: TrpcEndpointOptions<TRouter>,
  request: Request,
  call: SingleCall,
) {
  const config = opts.router._def._config;
  let ctx: inferRouterContext<TRouter> | undefined;
  let envelope: { result: { data: unknown } } | { error: unknown };
  let retryAfter: number | undefined;
  try {
    ctx = await opts.createContext(request);
    const data: unknown = await callTRPCProcedure({
      router: opts.router,
      path: call.path,
      getRawInput: async () => call.input,
      ctx,
      type: call.type,
      signal: undefined,
      batchIndex: 0,
    });
    if (isDataStream(data)) {
      throw new TRPCError({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message: "Cannot use stream-like response in non-streaming request - use httpBatchStreamLink",
      });
    }
    envelope = { result: { data } };
  } catch (cause) {
    const error = getTRPCErrorFromUnknown(cause);
    retryAfter = opts.retryAfterSeconds?.(error);
    opts.onError?.({ error, path: call.path, input: call.input, ctx, type: call.type, req: request });
    envelope = {
      error: getTRPCErrorShape({ config, error, type: call.type, path: call.path, input: call.input, ctx }),
    };
  }
  const json = call.isBatch ? [envelope] : envelope;
  return {
    status: getHTTPStatusCode(json as Parameters<typeof getHTTPStatusCode>[0]),
    body: JSON.stringify(transformTRPCResponse(config, json as never)),
    retryAfter,
  };
}

/** A promise or async iterable (at the top or one level down) needs the streaming link: resolveResponse refuses it too. */
function isDataStream(value: unknown): boolean {
  if (!isObject(value)) return false;
  const streaming = (v: unknown) =>
    (isObject(v) || typeof v === "function") && (isThenable(v) || (isObject(v) && Symbol.asyncIterator in v));
  return streaming(value) || Object.values(value).some(streaming);
}

const isObject = (value: unknown): value is object =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isThenable = (value: object | ((...args: never[]) => unknown)) => {
  const v = value as { then?: unknown; catch?: unknown };
  return typeof v.then === "function" && typeof v.catch === "function";
};

import type { AnyTRPCProcedure, AnyTRPCRouter } from "@trpc/server";
import type { FastifyRequest } from "fastify";

/**
 * One tRPC call read from the wire format, as the official adapter reads it
 * (@trpc/server's contentType.ts): `GET /<path>?input=<json>` for queries,
 * `POST /<path>` with a JSON body for mutations, each either plain or as a
 * batch of one (`?batch=1`, input under key "0", answered as an array).
 */
export interface SingleCall {
  path: string;
  procedure: AnyTRPCProcedure;
  type: "query" | "mutation";
  isBatch: boolean;
  /** The call's input after the router's transformer, as the procedure's getRawInput answers it. */
  input: unknown;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The call when the request is the common, simple case; null for anything
 * else (a batch of several, a subscription, streaming, an unknown procedure,
 * the wrong method, another content type, input that does not parse, odd
 * query strings), which the official adapter then answers, errors included,
 * exactly as it always did.
 */
export function readSingleCall(
  router: AnyTRPCRouter,
  request: FastifyRequest<{ Params: { path: string } }>,
): SingleCall | null {
  const method = request.method;
  if (method !== "GET" && method !== "POST") return null;
  const path = request.params.path;
  // Commas name a batch; "%" would be decoded twice by the adapter.
  if (path.includes(",") || path.includes("%")) return null;
  const procedure = (router._def.procedures as Record<string, AnyTRPCProcedure | undefined>)[path];
  if (!procedure) return null;
  const type = procedure._def.type;
  if ((type === "query" && method !== "GET") || (type === "mutation" && method !== "POST") || type === "subscription")
    return null;

  const headers = request.headers;
  const contentType = headers["content-type"];
  if (contentType !== undefined && !contentType.startsWith("application/json")) return null;
  // httpBatchStreamLink asks for JSON lines: the adapter streams those.
  if (headers["trpc-accept"] !== undefined || headers.accept?.includes("application/jsonl")) return null;

  const query = request.query as Record<string, string | string[] | undefined>;
  for (const key in query) if (key !== "batch" && key !== "input") return null;
  const { batch, input: queryInput } = query;
  if (Array.isArray(batch) || Array.isArray(queryInput)) return null;
  const isBatch = batch === "1";

  let inputs: unknown;
  if (method === "GET") {
    if (queryInput) {
      const parsed = parseJson(queryInput);
      if (!parsed.ok) return null;
      inputs = parsed.value;
    }
  } else {
    if (typeof request.body !== "string") return null;
    const parsed = parseJson(request.body);
    if (!parsed.ok) return null;
    inputs = parsed.value;
  }

  const { deserialize } = router._def._config.transformer.input;
  let input: unknown;
  if (inputs !== undefined) {
    if (!isBatch) input = deserialize(inputs);
    else if (!isPlainObject(inputs)) return null;
    else if (inputs[0] !== undefined) input = deserialize(inputs[0]);
  }
  return { path, procedure, type, isBatch, input };
}

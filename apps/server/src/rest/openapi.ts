import { ApiErrorBody, type RouteDef } from "@quad/contracts";
import { z } from "zod";

export interface OpenApiInfo {
  version: string;
  /** Where clients reach the API: the app's public address (paths below start with /api). */
  serverUrl: string;
}

const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/ApiError" } } };
const retryAfter = {
  "Retry-After": {
    description: "Seconds to wait before trying again (also `retryAfterSeconds` in the body)",
    schema: { type: "integer" },
  },
};

/**
 * Error answers, all with the shared body `{message, code, fieldErrors?}`.
 * Which of them an operation lists follows from its route: a session route
 * can answer 401, a write 429 (every write is rate-limited), a route with
 * input 400 with `fieldErrors`.
 */
const errorResponses = {
  BadRequest: {
    description: "The input failed its schema; `fieldErrors` names each field's problems",
    content: errorContent,
  },
  Unauthorized: { description: "No session, or an expired or revoked one", content: errorContent },
  TooManyRequests: {
    description: "Too many requests; try again after Retry-After",
    headers: retryAfter,
    content: errorContent,
  },
  Refused: {
    description: "Refused by a rule (402, 403, 404, 409, 413, 429 …); `code` says which",
    content: errorContent,
  },
  ServerError: {
    description: "The server failed, or the database is unavailable (503, with Retry-After)",
    headers: retryAfter,
    content: errorContent,
  },
};
type ErrorResponse = keyof typeof errorResponses;
const ref = (name: ErrorResponse) => ({ $ref: `#/components/responses/${name}` });

/**
 * OpenAPI 3.1 for the mounted REST routes, generated from the contracts
 * route table only, so a new route is documented, secured and given its
 * error answers without touching this file.
 */
export function buildOpenApiDocument(routes: readonly RouteDef[], info: OpenApiInfo) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operation: Record<string, unknown> = {
      operationId: route.procedure,
      summary: route.summary,
      tags: route.tags,
      // Session routes inherit the document's bearer requirement; public ones opt out.
      ...(route.auth ? {} : { security: [] }),
      responses: responsesOf(route),
    };
    const query = route.restSwitch?.query ?? route.input;
    if (query && route.method === "GET") {
      const schema = jsonSchema(query, "input") as { properties?: Record<string, unknown>; required?: string[] };
      operation.parameters = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
        name,
        in: "query",
        required: schema.required?.includes(name) ?? false,
        schema: property,
      }));
    } else if (route.input) {
      const contentType = route.multipart ? "multipart/form-data" : "application/json";
      operation.requestBody = {
        required: true,
        content: { [contentType]: { schema: jsonSchema(route.input, "input") } },
      };
    }
    if (route.stream) {
      const resume = {
        name: "Last-Event-ID",
        in: "header",
        required: false,
        description: "The id of the last event received: the stream starts with the votes after it",
        schema: { type: "string" },
      };
      operation.parameters = [...((operation.parameters as unknown[] | undefined) ?? []), resume];
    }
    (paths[`/api${route.path}`] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Quad API",
      version: info.version,
      description:
        "Errors are JSON `{message, code, fieldErrors?}` with the fitting status. Session routes take `Authorization: Bearer <accessToken>` from /api/auth/verify-code.",
    },
    servers: [{ url: info.serverUrl.replace(/\/+$/, "") }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "The access token of a session",
        },
      },
      schemas: { ApiError: jsonSchema(ApiErrorBody, "output") },
      responses: errorResponses,
    },
  };
}

function responsesOf(route: RouteDef): Record<string, unknown> {
  const write = route.method !== "GET";
  const ok = route.stream
    ? {
        description:
          "A stream of server-sent events: `event:` is the event's type, `data:` its JSON (the schema), `id:` where a resume (`Last-Event-ID`) starts; a comment line every 15 s",
        content: { "text/event-stream": { schema: jsonSchema(route.output, "output") } },
      }
    : { description: "OK", content: { "application/json": { schema: jsonSchema(route.output, "output") } } };
  return {
    200: ok,
    // A write's body can be malformed JSON even when it takes no input.
    ...(route.input || write ? { 400: ref("BadRequest") } : {}),
    ...(route.auth ? { 401: ref("Unauthorized") } : {}),
    ...(write ? { 429: ref("TooManyRequests") } : {}),
    "4XX": ref("Refused"),
    "5XX": ref("ServerError"),
  };
}

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return rest;
}

import { ApiErrorBody, type RouteDef } from "@quad/contracts";
import { z } from "zod";

/** OpenAPI 3.1 for the mounted REST routes, generated from the contracts schemas. */
export function buildOpenApiDocument(routes: readonly RouteDef[], info: { version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = { $ref: "#/components/schemas/ApiError" };
  for (const route of routes) {
    const operation: Record<string, unknown> = {
      operationId: route.procedure,
      summary: route.summary,
      tags: route.tags,
      ...(route.auth ? { security: [{ bearerAuth: [] }] } : {}),
      responses: {
        200: { description: "OK", content: { "application/json": { schema: jsonSchema(route.output, "output") } } },
        default: { description: "Error", content: { "application/json": { schema: errorSchema } } },
      },
    };
    if (route.input && route.method === "GET") {
      const schema = jsonSchema(route.input, "input") as { properties?: Record<string, unknown>; required?: string[] };
      operation.parameters = Object.entries(schema.properties ?? {}).map(([name, property]) => ({
        name,
        in: "query",
        required: schema.required?.includes(name) ?? false,
        schema: property,
      }));
    } else if (route.input) {
      const contentType = route.multipart ? "multipart/form-data" : "application/json";
      operation.requestBody = { required: true, content: { [contentType]: { schema: jsonSchema(route.input, "input") } } };
    }
    (paths[`/api${route.path}`] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: { title: "Quad API", version: info.version },
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas: { ApiError: jsonSchema(ApiErrorBody, "output") },
    },
  };
}

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

import { routeList, type RouteDef } from "@quad/contracts";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildOpenApiDocument } from "./openapi";

const info = { version: "1.0.0", serverUrl: "https://quad.test/" };

/** What a client generator would read: the document of every route in the table. */
const documentOf = (routes: readonly RouteDef[]) => buildOpenApiDocument(routes, info);
type Operation = { security?: unknown[]; responses: Record<string, { $ref?: string }> };
const operationOf = (doc: ReturnType<typeof documentOf>, route: RouteDef) =>
  doc.paths[`/api${route.path}`]![route.method.toLowerCase()] as Operation;

describe("the OpenAPI document", () => {
  it("passes Redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({
      source: JSON.stringify(documentOf(routeList)),
      absoluteRef: "openapi.json",
      config,
    });
    // The API is not published under a licence, so the licence field stays empty on purpose.
    const reported = problems
      .filter((problem) => problem.ruleId !== "info-license")
      .map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(reported).toEqual([]);
  });

  it("asks for a bearer token on session routes and nothing on public ones", () => {
    const doc = documentOf(routeList);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const route of routeList) {
      const operation = operationOf(doc, route);
      if (route.auth) {
        expect(operation.security, route.procedure).toBeUndefined();
        expect(operation.responses["401"], route.procedure).toEqual({ $ref: "#/components/responses/Unauthorized" });
      } else {
        expect(operation.security, route.procedure).toEqual([]);
        expect(operation.responses["401"], route.procedure).toBeUndefined();
      }
    }
  });

  it("documents every operation's errors with the shared error body", () => {
    const doc = documentOf(routeList);
    expect(doc.components.schemas.ApiError).toMatchObject({ type: "object", required: ["message", "code"] });
    for (const [name, response] of Object.entries(doc.components.responses)) {
      expect(response.content["application/json"].schema, name).toEqual({ $ref: "#/components/schemas/ApiError" });
    }
    for (const route of routeList) {
      const responses = operationOf(doc, route).responses;
      expect(responses["4XX"], route.procedure).toEqual({ $ref: "#/components/responses/Refused" });
      expect(responses["5XX"], route.procedure).toEqual({ $ref: "#/components/responses/ServerError" });
      if (route.input) expect(responses["400"], route.procedure).toBeDefined();
      if (route.method !== "GET") expect(responses["429"], route.procedure).toBeDefined();
    }
  });

  it("names the server clients call, without a trailing slash", () => {
    expect(documentOf(routeList).servers).toEqual([{ url: "https://quad.test" }]);
  });

  it("gives a route added to the table its security and errors with no other change", () => {
    const added: RouteDef = {
      method: "POST",
      path: "/things/add",
      procedure: "things.add",
      auth: true,
      tags: ["things"],
      summary: "Add a thing",
      input: z.object({ name: z.string() }),
      output: z.object({ ok: z.literal(true) }),
    };
    const operation = operationOf(documentOf([...routeList, added]), added);
    expect(operation.security).toBeUndefined();
    expect(Object.keys(operation.responses).sort()).toEqual(["200", "400", "401", "429", "4XX", "5XX"]);
  });
});

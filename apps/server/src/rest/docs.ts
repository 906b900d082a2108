import type { FastifyInstance } from "fastify";
import type { buildOpenApiDocument } from "./openapi";

/** Where the interactive API docs are served, in development only. */
export const API_DOCS_PREFIX = "/api/docs";

/**
 * Swagger UI over the OpenAPI document, for development (production never
 * calls this, so its packages are not even loaded there). Its page loads
 * only its own scripts and styles, so it runs under the app's CSP with no
 * exception; the base layout leaves out the standalone top bar, which
 * renders an inline <style> the CSP would block. "Try it out" calls the
 * origin the docs were opened from (:5173 through the web dev server's
 * proxy, or :3000), which the CSP's connect-src allows.
 */
export async function registerApiDocs(
  app: FastifyInstance,
  document: ReturnType<typeof buildOpenApiDocument>,
): Promise<void> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import("@fastify/swagger"),
    import("@fastify/swagger-ui"),
  ]);
  await app.register(async (docs) => {
    await docs.register(swagger, { mode: "static", specification: { document: document as never } });
    await docs.register(swaggerUi, {
      routePrefix: API_DOCS_PREFIX,
      uiConfig: { deepLinking: true, persistAuthorization: true, layout: "BaseLayout" },
      transformSpecification: (spec, request) => ({
        ...spec,
        servers: [{ url: `${request.protocol}://${request.host}` }],
      }),
    });
  });
}

import { existsSync, statSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built web app at / with history fallback: any GET that is not
 * an API call and asks for HTML gets the app's shell, so deep links work.
 * index.html carries the prerendered landing page (apps/web/scripts/prerender.mjs)
 * and is sent at / only; other routes get app.html, the plain shell (or
 * index.html when a build has none). Returns whether a build was found.
 */
export async function registerSpa(app: FastifyInstance, distDir: string | undefined): Promise<boolean> {
  if (!distDir || !existsSync(path.join(distDir, "index.html"))) return false;
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // The web build writes .br/.gz beside each asset (apps/web/scripts/precompress.mjs).
    preCompressed: true,
    setHeaders(reply, filePath) {
      // Hashed assets never change; index.html must always be revalidated.
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  const shell = existsSync(path.join(distDir, "app.html")) ? "app.html" : "index.html";
  app.get("/", (_request, reply) => reply.header("cache-control", "no-cache").sendFile("index.html"));
  app.get("/*", async (request, reply) => {
    const file = (request.params as { "*": string })["*"];
    if (file === "api" || file.startsWith("api/")) return reply.callNotFound();
    const candidate = path.resolve(distDir, file);
    if (candidate.startsWith(distDir + path.sep) && isFile(candidate)) {
      return reply.sendFile(path.relative(distDir, candidate));
    }
    return reply.header("cache-control", "no-cache").sendFile(shell);
  });
  return true;
}

/**
 * A built file at this path. A name no file can have (a NUL, a part over 255
 * bytes, a path through a file) is simply none: the app's shell answers it.
 */
function isFile(candidate: string): boolean {
  try {
    return statSync(candidate, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

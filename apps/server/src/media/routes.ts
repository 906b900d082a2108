import type { FastifyInstance, FastifyReply } from "fastify";
import { ERROR_MESSAGES, LOCKED_CARD_PHOTO, LOCKED_CARD_SVG } from "@quad/contracts";
import type { MediaStorage } from "./storage";

/** An image that never changes under its URL, sent inert (no script, no sniffing). */
const sendImage = (reply: FastifyReply, contentType: string, body: string | Buffer) =>
  reply
    .header("content-type", contentType)
    .header("cache-control", "public, max-age=31536000, immutable")
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'")
    .send(body);

/**
 * Serves stored images. Keys are content-addressed or never reused, so
 * responses are cacheable for a year.
 */
export function registerMediaRoutes(app: FastifyInstance, media: MediaStorage) {
  // The one picture of every locked card: a constant, not a stored file (no key can name it).
  app.get(LOCKED_CARD_PHOTO, async (_request, reply) => sendImage(reply, "image/svg+xml", LOCKED_CARD_SVG));
  app.get<{ Params: { "*": string } }>("/api/media/*", async (request, reply) => {
    const file = await media.get(request.params["*"]);
    if (!file) return reply.code(404).send({ message: ERROR_MESSAGES.notFound, code: "NOT_FOUND" });
    return sendImage(reply, file.contentType, file.data);
  });
}

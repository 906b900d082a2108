import multipart from "@fastify/multipart";
import { ERROR_MESSAGES, PHOTO, ProfileUpdateSchema } from "@quad/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../errors";
import { errorResponse } from "../../http/error-body";
import type { Context } from "../../trpc/context";
import { enforceWriteLimits } from "../../trpc/limits";
import { noteStorageFull } from "../health/service";
import { processPhoto } from "./photo";
import { updateProfile } from "./profile";

const LIST_FIELDS = new Set(["organizations", "interests", "emojis"]);

/**
 * PATCH /api/users/update (docs/product.md): multipart form fields plus an optional
 * `profileImage` file; JSON bodies work too. A plain Fastify route because
 * tRPC carries JSON; the rules are the profile service's, shared with the
 * `users.update` procedure.
 */
export async function registerProfileUpdateRoute(
  app: FastifyInstance,
  createContext: (request: FastifyRequest) => Promise<Context>,
) {
  await app.register(multipart, {
    limits: { fileSize: PHOTO.maxBytes, files: 1, fields: 30, fieldSize: 16 * 1024, parts: 40 },
  });
  app.patch("/api/users/update", async (request, reply) => {
    let ctx: Context | undefined;
    try {
      ctx = await createContext(request);
      if (!ctx.viewer) throw new AppError("UNAUTHORIZED", ERROR_MESSAGES.unauthorized);
      await enforceWriteLimits(ctx.rateLimiter, { name: "users.update", ip: ctx.ip, phone: ctx.viewer.phone });
      const { fields, file } = request.isMultipart()
        ? await readMultipart(request)
        : { fields: request.body ?? {}, file: undefined };
      const input = ProfileUpdateSchema.parse(listsFromText(fields));
      const photo = file ? await processPhoto(file) : undefined;
      return { user: await updateProfile(ctx, ctx.viewer, input, photo) };
    } catch (error) {
      const { status, body } = errorResponse(error);
      // A photo that found no space on disk (ENOSPC): readiness says so for a while.
      if (ctx) noteStorageFull(ctx.lifecycle, ctx.now, error);
      if (status >= 500) request.log.error({ err: error }, "profile update failed");
      if (body.retryAfterSeconds) reply.header("retry-after", String(body.retryAfterSeconds));
      return reply.code(status).send(body);
    }
  });
}

/**
 * Reads the form's fields and its one file. A body the parser cannot read
 * (cut short, no boundary, not multipart inside) is the client's: 400, not
 * the parser's plain Error (a 500). Limits keep their own status (413).
 */
async function readMultipart(request: FastifyRequest) {
  try {
    return await readParts(request);
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    if (error instanceof AppError || (typeof status === "number" && status < 500)) throw error;
    throw new AppError("BAD_REQUEST", ERROR_MESSAGES.malformedUpload);
  }
}

async function readParts(request: FastifyRequest) {
  const fields: Record<string, unknown> = {};
  let file: Buffer | undefined;
  for await (const part of request.parts()) {
    if (part.type === "file") {
      const data = await part.toBuffer();
      if (part.fieldname !== "profileImage")
        throw new AppError("BAD_REQUEST", `Unexpected file field "${part.fieldname}"`);
      file = data;
    } else {
      const value = part.value;
      const existing = fields[part.fieldname];
      fields[part.fieldname] =
        existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
    }
  }
  return { fields, file };
}

/** List fields arrive as repeated form fields, one value, or JSON text. */
function listsFromText(fields: unknown): unknown {
  // Not an object (a text/plain body, a JSON array): the schema answers with its message.
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return fields;
  const out: Record<string, unknown> = { ...fields };
  for (const key of LIST_FIELDS) {
    const value = out[key];
    if (typeof value !== "string") continue;
    if (value.trim().startsWith("[")) {
      try {
        out[key] = JSON.parse(value);
      } catch {
        // Left as text: the schema answers with its message.
      }
    } else {
      out[key] = value === "" ? [] : [value];
    }
  }
  return out;
}

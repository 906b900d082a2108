import { streamRouteList, type RouteDef } from "@quad/contracts";
import { callTRPCProcedure, isTrackedEnvelope, type AnyRouter } from "@trpc/server";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { errorResponse } from "../http/error-body";
import type { Context } from "../trpc/context";

/**
 * The stream rows of the route table as text/event-stream, for REST
 * clients: the same subscription procedure the tRPC client opens (session,
 * input, rules and each event's schema), its events written as
 * `id:` (when resumable), `event:` (the event's type) and `data:` (its JSON).
 * `Last-Event-ID` (the header EventSource sends on reconnect) or
 * `?lastEventId=` resumes. Refusals before the first event (401, 403, the
 * caps' 429 and 503) are plain JSON error answers.
 */
export function registerStreamRoutes(
  app: FastifyInstance,
  opts: { router: AnyRouter; createContext: (request: FastifyRequest) => Promise<Context> },
): RouteDef[] {
  const procedures = opts.router._def.procedures as Record<string, unknown>;
  const mounted = streamRouteList.filter((route) => route.procedure in procedures);
  for (const route of mounted) {
    app.get(`/api${route.path}`, async (request, reply) => {
      const ctx = await opts.createContext(request);
      const abort = new AbortController();
      const header = request.headers["last-event-id"];
      const query = request.query as { lastEventId?: unknown };
      const lastEventId = typeof header === "string" && header !== "" ? header : query.lastEventId;
      let events: AsyncIterator<unknown>;
      let first: IteratorResult<unknown>;
      try {
        const iterable = (await callTRPCProcedure({
          router: opts.router,
          path: route.procedure,
          getRawInput: async () => (lastEventId === undefined ? undefined : { lastEventId }),
          ctx,
          type: "subscription",
          signal: abort.signal,
          batchIndex: 0,
        })) as AsyncIterable<unknown>;
        events = iterable[Symbol.asyncIterator]();
        // The checks run up to the first event: a refusal is still an ordinary answer.
        first = await events.next();
      } catch (error) {
        abort.abort();
        const { status, body } = errorResponse(error);
        if (status === 500) request.log.error({ err: error, procedure: route.procedure }, "stream failed");
        if (body.retryAfterSeconds) reply.header("retry-after", String(body.retryAfterSeconds));
        return reply.code(status).send(body);
      }

      // Written on the socket directly: Fastify's reply would wait for a body that never ends.
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store, no-transform",
        // nginx passes it on at once rather than buffering (deploy/nginx.conf says so too).
        "x-accel-buffering": "no",
      });
      const heartbeat = setInterval(() => raw.write(": ping\n\n"), ctx.live.limits.heartbeatMs);
      const stop = () => {
        clearInterval(heartbeat);
        abort.abort();
      };
      // The client left (or the server is closing): the stream ends, and frees its slot.
      raw.once("close", stop);
      try {
        raw.write("retry: 3000\n\n");
        for (let next = first; !next.done; next = await events.next()) raw.write(eventText(next.value));
      } catch (error) {
        const { body } = errorResponse(error);
        raw.write(`event: error\ndata: ${JSON.stringify(body)}\n\n`);
      } finally {
        stop();
        raw.end();
      }
    });
  }
  return mounted;
}

function eventText(value: unknown): string {
  const [id, data] = isTrackedEnvelope(value) ? [value[0], value[1]] : [undefined, value];
  const type = (data as { type?: unknown }).type;
  const lines = [
    id === undefined ? "" : `id: ${id}\n`,
    typeof type === "string" ? `event: ${type}\n` : "",
    `data: ${JSON.stringify(data)}\n\n`,
  ];
  return lines.join("");
}

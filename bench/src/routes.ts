import {
  createCallerFactory,
  getMe,
  publicProcedure,
  router,
  receivedVotes,
  type AppPlugin,
} from "@quad/server/plugins";
import { registerTrpcEndpoint } from "@quad/trpc-fastify-single-call";
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from "@trpc/server/adapters/fastify";
import { sql } from "drizzle-orm";
import { z } from "zod";

/**
 * The ceilings `pnpm bench` compares every hot path with, added to the app
 * by the bench's own server entry (serve.ts) and by no deployment. Each runs
 * `SELECT 1` on the app's own pool:
 *
 * - GET /api/bench/select1                 plain Fastify route: the HTTP + pool ceiling
 * - GET /api/bench/trpc/select1            the same through the tRPC endpoint the app uses
 *                                          (@quad/trpc-fastify-single-call: the tRPC ceiling)
 * - GET /api/bench/trpc-adapter/select1    the same through the official tRPC Fastify
 *                                          adapter alone, for comparison
 * - GET /api/bench/caller/select1          the same procedure through createCaller in a
 *                                          plain Fastify route (how the app's REST adapter calls)
 *
 * The tRPC ones use the app's context factory and procedure chain, so they
 * cost what the real procedures cost apart from their own work.
 *
 * The reads' services alone, in plain Fastify routes with the request's
 * context (the bearer token checked) and nothing else of the app's: no tRPC
 * call, no schemas, no rate limits. Each read path's budget holds the app's
 * route against its own service here:
 *
 * - GET /api/bench/alone/users-me          what GET /api/users/me answers
 * - GET /api/bench/alone/votes?page=&limit=&cursor=
 *                                          what GET /api/votes/for-user answers
 */
const Select1 = z.object({ ok: z.literal(true) });

export const benchRouter = router({
  select1: publicProcedure.output(Select1).query(async ({ ctx }) => {
    await ctx.db.execute(sql`select 1`);
    return { ok: true as const };
  }),
});
export type BenchRouter = typeof benchRouter;

const createBenchCaller = createCallerFactory(benchRouter);

export const registerBenchRoutes: AppPlugin = async (app, opts) => {
  app.get("/api/bench/select1", async (request) => {
    const ctx = await opts.createContext(request);
    await ctx.db.execute(sql`select 1`);
    return { ok: true };
  });
  app.get("/api/bench/alone/users-me", async (request, reply) => {
    const { db, viewer } = await opts.createContext(request);
    return viewer ? getMe(db, viewer.phone) : reply.code(401).send();
  });
  app.get("/api/bench/alone/votes", async (request, reply) => {
    const { db, viewer, now } = await opts.createContext(request);
    if (!viewer) return reply.code(401).send();
    const query = request.query as { page?: string; limit?: string; cursor?: string };
    return receivedVotes(
      db,
      viewer.phone,
      { page: Number(query.page ?? 1), limit: Number(query.limit ?? 10), cursor: query.cursor },
      now(),
    );
  });
  app.get("/api/bench/caller/select1", async (request) =>
    createBenchCaller(await opts.createContext(request)).select1(),
  );
  await registerTrpcEndpoint(app, {
    prefix: "/api/bench/trpc",
    router: benchRouter,
    createContext: opts.createContext,
  });
  await app.register(fastifyTRPCPlugin, {
    prefix: "/api/bench/trpc-adapter",
    trpcOptions: { router: benchRouter, createContext: ({ req }) => opts.createContext(req) },
  } satisfies FastifyTRPCPluginOptions<BenchRouter>);
};

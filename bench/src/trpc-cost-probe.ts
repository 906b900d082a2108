/**
 * Where the tRPC Fastify adapter's time goes (docs/decisions/0005-trpc-hot-path.md,
 * packages/trpc-fastify-single-call/README.md).
 * Serves one procedure that does no I/O through each layer and times N
 * sequential requests with Fastify's inject (no sockets: CPU per request
 * only), best of several rounds, so other load on the machine weighs less.
 *
 *   pnpm --filter @quad/bench exec tsx src/trpc-cost-probe.ts [requests]
 */
import { performance } from "node:perf_hooks";
import { initTRPC } from "@trpc/server";
import { fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import { incomingMessageToRequest } from "@trpc/server/adapters/node-http";
import { resolveResponse } from "@trpc/server/http";
import { registerTrpcEndpoint } from "@quad/trpc-fastify-single-call";
import Fastify, { type FastifyRequest } from "fastify";

interface Context {
  ip: string;
}
const t = initTRPC.context<Context>().create();
const probeRouter = t.router({ ping: t.procedure.query(() => ({ ok: true as const })) });
const createContext = async (request: FastifyRequest): Promise<Context> => ({ ip: request.ip });

const app = Fastify();
app.get("/plain/ping", async () => ({ ok: true }));
const createCaller = t.createCallerFactory(probeRouter);
app.get("/caller/ping", async (request) => ({
  result: { data: await createCaller(await createContext(request)).ping() },
}));
await app.register(fastifyTRPCPlugin, {
  prefix: "/adapter",
  trpcOptions: { router: probeRouter, createContext: ({ req }: { req: FastifyRequest }) => createContext(req) },
});
await registerTrpcEndpoint(app, { prefix: "/endpoint", router: probeRouter, createContext });
// The adapter taken apart: its Fetch Request alone; then resolveResponse too, with the body sent as a string.
app.get("/fetch-request/ping", async (request) => {
  incomingMessageToRequest(request.raw, request.raw.socket as never, { maxBodySize: null });
  return { result: { data: { ok: true } } };
});
app.get("/resolve-response/:path", async (request: FastifyRequest<{ Params: { path: string } }>, reply) => {
  const req = incomingMessageToRequest(request.raw, reply.raw, { maxBodySize: null });
  const res = await resolveResponse({
    router: probeRouter,
    req,
    path: request.params.path,
    error: null,
    createContext: () => createContext(request),
  });
  return reply
    .code(res.status)
    .header("content-type", "application/json")
    .send(await res.text());
});
await app.ready();

const requests = Number(process.argv[2] ?? 20_000);
const cases: [string, string][] = [
  ["plain Fastify route", "/plain/ping"],
  ["createCaller in a route", "/caller/ping"],
  ["the app's endpoint (@quad/trpc-fastify-single-call)", "/endpoint/ping?batch=1"],
  ["+ Fetch Request only (incomingMessageToRequest)", "/fetch-request/ping"],
  ["+ resolveResponse, body sent as a string", "/resolve-response/ping?batch=1"],
  ["official adapter (all of it: + Response body through a web stream)", "/adapter/ping?batch=1"],
];
for (const [, url] of cases) {
  const res = await app.inject({ method: "GET", url });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
}
const results = new Map<string, number>();
for (let round = 0; round < 5; round++) {
  for (const [name, url] of cases) {
    const started = performance.now();
    for (let i = 0; i < requests; i++) await app.inject({ method: "GET", url });
    const perRequestUs = ((performance.now() - started) * 1000) / requests;
    results.set(name, Math.min(results.get(name) ?? Infinity, perRequestUs));
  }
}
const plain = results.get("plain Fastify route")!;
console.log(`Node ${process.versions.node}; ${requests} sequential injects per case, best of 5 rounds`);
for (const [name, us] of results)
  console.log(`${name.padEnd(70)} ${us.toFixed(1).padStart(6)} µs  ${(us / plain).toFixed(2)}× plain`);
await app.close();

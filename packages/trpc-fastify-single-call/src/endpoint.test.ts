import { initTRPC, TRPCError } from "@trpc/server";
import { fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import Fastify, { type FastifyInstance, type FastifyRequest, type InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { registerTrpcEndpoint } from "./endpoint";

/**
 * The endpoint answers single calls itself and must answer them exactly as
 * the official adapter does: every case goes to both, serving the same
 * router, and the status, content type, vary and body must be identical,
 * byte for byte. Which one answered shows in the framing: the endpoint
 * sends a content-length, the adapter streams chunked. (The server runs the
 * same comparison on its own router: apps/server/src/trpc/endpoint.test.ts.)
 */
interface Context {
  user: string | undefined;
}

/** An error that carries how long to wait, as an app's own error class would. */
class WaitError extends Error {
  constructor(readonly seconds: number) {
    super("Slow down");
  }
}

const t = initTRPC.context<Context>().create({
  isDev: false,
  errorFormatter: ({ shape, error }) => ({
    ...shape,
    data: { ...shape.data, stack: undefined, wait: error.cause instanceof WaitError ? error.cause.seconds : undefined },
  }),
});
const signedIn = t.procedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first" });
  return next({ ctx: { user: ctx.user } });
});
const testRouter = t.router({
  health: t.procedure.query(() => ({ ok: true })),
  greet: t.procedure.input(z.object({ name: z.string().min(1) })).query(({ input }) => `hello ${input.name}`),
  me: signedIn.query(({ ctx }) => ({ user: ctx.user })),
  limited: t.procedure.query(() => {
    throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: "Slow down", cause: new WaitError(7) });
  }),
  conflict: t.procedure.mutation(() => {
    throw new TRPCError({ code: "CONFLICT", message: "Already there" });
  }),
  broken: t.procedure.query(() => {
    throw new Error("a bug");
  }),
  addNote: t.procedure.input(z.object({ text: z.string() })).mutation(({ input }) => ({ length: input.text.length })),
  stream: t.procedure.query(() => ({ later: Promise.resolve(1) })),
});

const createContext = async (request: FastifyRequest): Promise<Context> => ({
  user: typeof request.headers["x-user"] === "string" ? request.headers["x-user"] : undefined,
});
const retryAfterSeconds = (error: TRPCError) => (error.cause instanceof WaitError ? error.cause.seconds : undefined);
const errorsSeen: { endpoint: string[]; adapter: string[] } = { endpoint: [], adapter: [] };

let endpoint: FastifyInstance;
let adapter: FastifyInstance;
beforeAll(async () => {
  endpoint = Fastify();
  await registerTrpcEndpoint(endpoint, {
    prefix: "/trpc",
    router: testRouter,
    createContext,
    maxBatchSize: 10,
    retryAfterSeconds,
    onError: ({ error, path }) => errorsSeen.endpoint.push(`${path}:${error.code}`),
  });
  adapter = Fastify();
  await adapter.register(fastifyTRPCPlugin, {
    prefix: "/trpc",
    trpcOptions: {
      router: testRouter,
      createContext: ({ req }: { req: FastifyRequest }) => createContext(req),
      maxBatchSize: 10,
      onError: ({ error, path }: { error: TRPCError; path?: string }) =>
        errorsSeen.adapter.push(`${path}:${error.code}`),
      responseMeta: ({ errors }: { errors: TRPCError[] }) => {
        const wait = errors.map(retryAfterSeconds).find((seconds) => seconds !== undefined);
        return wait === undefined ? {} : { headers: { "retry-after": String(wait) } };
      },
    },
  });
  await Promise.all([endpoint.ready(), adapter.ready()]);
});
afterAll(async () => {
  await endpoint?.close();
  await adapter?.close();
});

const batchOfOne = (input: unknown) => `batch=1&input=${encodeURIComponent(JSON.stringify({ 0: input }))}`;
const json = { "content-type": "application/json" };

async function expectSameAnswer(request: InjectOptions, expected: { status: number }) {
  const [fast, official] = [await endpoint.inject(request), await adapter.inject(request)];
  expect(fast.body, "body").toBe(official.body);
  expect(fast.statusCode).toBe(official.statusCode);
  expect(fast.statusCode, fast.body).toBe(expected.status);
  for (const header of ["content-type", "vary", "retry-after"])
    expect(fast.headers[header], header).toBe(official.headers[header]);
  expect(official.headers["transfer-encoding"]).toBe("chunked");
  expect(fast.headers["content-length"]).toBe(String(Buffer.byteLength(fast.body)));
  return { body: JSON.parse(fast.body) as unknown, headers: fast.headers };
}

describe("single calls, answered by the endpoint as the adapter answers them", () => {
  it("a query with no input, plain and as a batch of one", async () => {
    await expectSameAnswer({ method: "GET", url: "/trpc/health" }, { status: 200 });
    await expectSameAnswer({ method: "GET", url: "/trpc/health?batch=1" }, { status: 200 });
  });

  it("a query with input, plain and batched; a context from the request", async () => {
    await expectSameAnswer(
      { method: "GET", url: `/trpc/greet?input=${encodeURIComponent(JSON.stringify({ name: "Ann" }))}` },
      { status: 200 },
    );
    const { body } = await expectSameAnswer(
      { method: "GET", url: `/trpc/me?${batchOfOne(undefined)}`, headers: { "x-user": "ann" } },
      { status: 200 },
    );
    expect(body).toEqual([{ result: { data: { user: "ann" } } }]);
  });

  it("a mutation, plain and as a batch of one", async () => {
    await expectSameAnswer(
      { method: "POST", url: "/trpc/addNote", headers: json, payload: JSON.stringify({ text: "a" }) },
      { status: 200 },
    );
    const { body } = await expectSameAnswer(
      { method: "POST", url: "/trpc/addNote?batch=1", headers: json, payload: JSON.stringify({ 0: { text: "bc" } }) },
      { status: 200 },
    );
    expect(body).toEqual([{ result: { data: { length: 2 } } }]);
  });

  it("errors: input (400), middleware (401), a rule (409), a bug (500), each through the formatter", async () => {
    await expectSameAnswer({ method: "GET", url: `/trpc/greet?${batchOfOne({ name: "" })}` }, { status: 400 });
    await expectSameAnswer({ method: "GET", url: "/trpc/me" }, { status: 401 });
    await expectSameAnswer(
      { method: "POST", url: "/trpc/conflict?batch=1", headers: json, payload: "{}" },
      { status: 409 },
    );
    await expectSameAnswer({ method: "GET", url: "/trpc/broken" }, { status: 500 });
    expect(errorsSeen.endpoint).toEqual(errorsSeen.adapter);
  });

  it("a result the streaming link would need: 415, as the adapter (whose error shape leaves out the path)", async () => {
    const [fast, official] = [
      await endpoint.inject({ method: "GET", url: "/trpc/stream" }),
      await adapter.inject({ method: "GET", url: "/trpc/stream" }),
    ];
    expect(fast.statusCode).toBe(415);
    expect(official.statusCode).toBe(415);
    expect(fast.json()).toEqual({
      error: { ...official.json().error, data: { ...official.json().error.data, path: "stream" } },
    });
  });

  it("an error that asks to wait: Retry-After from the retryAfterSeconds option", async () => {
    const { headers } = await expectSameAnswer({ method: "GET", url: "/trpc/limited?batch=1" }, { status: 429 });
    expect(headers["retry-after"]).toBe("7");
  });
});

describe("everything else, handed to the adapter", () => {
  it.each<[string, InjectOptions, number]>([
    ["an unknown procedure", { method: "GET", url: "/trpc/nope.nothing" }, 404],
    ["a batch of two", { method: "GET", url: "/trpc/health,health?batch=1" }, 200],
    ["a query sent as POST", { method: "POST", url: "/trpc/health", headers: json, payload: "{}" }, 405],
    ["a mutation sent as GET", { method: "GET", url: "/trpc/addNote" }, 405],
    ["input that is not JSON", { method: "GET", url: "/trpc/greet?input=%7Bnope" }, 400],
    ["a body that is not JSON", { method: "POST", url: "/trpc/addNote", headers: json, payload: "{nope" }, 400],
    ["a batch whose input is not an object", { method: "GET", url: "/trpc/greet?batch=1&input=5" }, 400],
    [
      "streaming asked for",
      { method: "GET", url: "/trpc/health?batch=1", headers: { "trpc-accept": "application/jsonl" } },
      200,
    ],
    ["connection params", { method: "GET", url: "/trpc/health?connectionParams=1" }, 400],
    ["a batch of two, one waiting", { method: "GET", url: "/trpc/health,limited?batch=1" }, 207],
  ])("%s", async (_name, request, status) => {
    const [fast, official] = [await endpoint.inject(request), await adapter.inject(request)];
    expect(fast.statusCode, fast.body).toBe(status);
    expect(fast.statusCode).toBe(official.statusCode);
    expect(fast.headers["transfer-encoding"]).toBe("chunked");
    expect(fast.headers["retry-after"]).toBe(official.headers["retry-after"]);
    expect(fast.body).toBe(official.body);
  });
});

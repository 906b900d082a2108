import { registerTrpcEndpoint } from "@quad/trpc-fastify-single-call";
import { fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import Fastify, { type FastifyInstance, type FastifyRequest, type InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retryAfterSecondsOf } from "../errors";
import { PREVIEW_PER_IP } from "../modules/rounds/router";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";
import { receiveVotes } from "../test/votes";
import { requestContextFactory } from "./context";
import { appRouter } from "./root";

/**
 * The endpoint (@quad/trpc-fastify-single-call) answers single calls itself
 * and must answer the app's router exactly as the official adapter does:
 * every case is sent to both, on the same services (database, rate limiter,
 * clock), and the status, content type and body must be identical, byte for
 * byte. Which one answered shows in the
 * framing: the endpoint sends a content-length, the adapter streams chunked.
 */
let t: TestApp;
let endpoint: FastifyInstance;
let adapter: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  const createContext = requestContextFactory(t.deps);
  endpoint = Fastify();
  await registerTrpcEndpoint(endpoint, {
    prefix: "/api/trpc",
    router: appRouter,
    createContext,
    maxBatchSize: 10,
    retryAfterSeconds: retryAfterSecondsOf,
  });
  adapter = Fastify();
  await adapter.register(fastifyTRPCPlugin, {
    prefix: "/api/trpc",
    trpcOptions: {
      router: appRouter,
      createContext: ({ req }: { req: FastifyRequest }) => createContext(req),
      maxBatchSize: 10,
    },
  });
  await Promise.all([endpoint.ready(), adapter.ready()]);
});
afterAll(async () => {
  await endpoint?.close();
  await adapter?.close();
  await t?.close();
});

const batchOfOne = (input: unknown) => `batch=1&input=${encodeURIComponent(JSON.stringify({ 0: input }))}`;
const json = { "content-type": "application/json" };

/** Sends the same request to both; answers what each said. */
async function both(request: InjectOptions) {
  const [fast, official] = [await endpoint.inject(request), await adapter.inject(request)];
  return { fast, official };
}

async function expectSameAnswer(
  request: InjectOptions,
  expected: { status: number; answeredBy: "endpoint" | "adapter" },
) {
  const { fast, official } = await both(request);
  expect(fast.body, "body").toBe(official.body);
  expect(fast.statusCode).toBe(official.statusCode);
  expect(fast.statusCode, fast.body).toBe(expected.status);
  for (const header of ["content-type", "vary"]) expect(fast.headers[header], header).toBe(official.headers[header]);
  expect(official.headers["transfer-encoding"]).toBe("chunked");
  if (expected.answeredBy === "endpoint")
    expect(fast.headers["content-length"]).toBe(String(Buffer.byteLength(fast.body)));
  else expect(fast.headers["transfer-encoding"]).toBe("chunked");
  return JSON.parse(fast.body) as unknown;
}

describe("single calls, answered by the endpoint as the adapter answers them", () => {
  it("a query with no input, plain and as a batch of one", async () => {
    await expectSameAnswer({ method: "GET", url: "/api/trpc/schools.list" }, { status: 200, answeredBy: "endpoint" });
    await expectSameAnswer(
      { method: "GET", url: "/api/trpc/health.status?batch=1" },
      { status: 200, answeredBy: "endpoint" },
    );
  });

  it("a signed-in query with input, as the web client sends it", async () => {
    const c = await campus(t);
    const voter = await c.student();
    await receiveVotes(t, { recipientId: c.me.id, voterIds: [voter.id, voter.id], at: new Date(Date.now() - 10_000) });
    const body = await expectSameAnswer(
      { method: "GET", url: `/api/trpc/inbox.received?${batchOfOne({ limit: 1 })}`, headers: c.headers },
      { status: 200, answeredBy: "endpoint" },
    );
    expect(body).toMatchObject([{ result: { data: { hasMore: true } } }]);
    // A reload answers the same open round, so both see the same.
    for (let i = 0; i < 4; i++) await c.student();
    await expectSameAnswer(
      { method: "GET", url: `/api/trpc/rounds.open?${batchOfOne(undefined)}`, headers: c.headers },
      { status: 200, answeredBy: "endpoint" },
    );
  });

  it("a mutation, plain and as a batch of one", async () => {
    const c = await campus(t);
    const voter = await c.student();
    const { votes } = await receiveVotes(t, {
      recipientId: c.me.id,
      voterIds: [voter.id, voter.id],
      at: new Date(Date.now() - 10_000),
    });
    await t.app.inject({
      method: "POST",
      url: "/api/unlocks/unlock-user",
      headers: c.headers,
      payload: { userId: votes[0]!.id },
    });
    // Revealing an unlocked voter again is free, so both answer the same.
    const payload = { userId: votes[1]!.id };
    const status = (
      await t.app.inject({ method: "POST", url: "/api/unlocks/unlock-user", headers: c.headers, payload })
    ).statusCode;
    await expectSameAnswer(
      {
        method: "POST",
        url: "/api/trpc/inbox.unlock",
        headers: { ...c.headers, ...json },
        payload: JSON.stringify(payload),
      },
      { status, answeredBy: "endpoint" },
    );
    await expectSameAnswer(
      {
        method: "POST",
        url: "/api/trpc/inbox.unlock?batch=1",
        headers: { ...c.headers, ...json },
        payload: JSON.stringify({ 0: payload }),
      },
      { status, answeredBy: "endpoint" },
    );
  });

  it("a zod input error: 400 with the formatter's fieldErrors", async () => {
    const c = await campus(t);
    const body = await expectSameAnswer(
      { method: "GET", url: `/api/trpc/inbox.received?${batchOfOne({ limit: 999, page: 0 })}`, headers: c.headers },
      { status: 400, answeredBy: "endpoint" },
    );
    expect(body).toMatchObject([
      { error: { data: { code: "BAD_REQUEST", fieldErrors: { limit: expect.any(Array) } } } },
    ]);
    await expectSameAnswer(
      {
        method: "POST",
        url: "/api/trpc/rounds.vote",
        headers: { ...c.headers, ...json },
        payload: JSON.stringify({ userId: "nobody", promptId: "x" }),
      },
      { status: 400, answeredBy: "endpoint" },
    );
  });

  it("no session: 401", async () => {
    await expectSameAnswer(
      { method: "GET", url: `/api/trpc/users.me?${batchOfOne(undefined)}` },
      { status: 401, answeredBy: "endpoint" },
    );
    await expectSameAnswer(
      { method: "GET", url: `/api/trpc/users.me`, headers: { authorization: "Bearer not-a-token" } },
      { status: 401, answeredBy: "endpoint" },
    );
  });

  it("over the rate limit: 429 with retryAfterSeconds", async () => {
    const url = "/api/trpc/rounds.preview?" + batchOfOne({ gender: "female" });
    for (let i = 0; i < PREVIEW_PER_IP.limit; i++)
      await endpoint.inject({ method: "GET", url, remoteAddress: "10.77.0.1" });
    const body = await expectSameAnswer(
      { method: "GET", url, remoteAddress: "10.77.0.1" },
      { status: 429, answeredBy: "endpoint" },
    );
    expect(body).toMatchObject([
      { error: { data: { code: "TOO_MANY_REQUESTS", retryAfterSeconds: expect.any(Number) } } },
    ]);
  });

  it("a rule the service enforces: 404 and 409 from AppError", async () => {
    const c = await campus(t);
    const missing = { userId: "00000000-0000-4000-8000-000000000000" };
    await expectSameAnswer(
      {
        method: "POST",
        url: "/api/trpc/inbox.unlock?batch=1",
        headers: { ...c.headers, ...json },
        payload: JSON.stringify({ 0: missing }),
      },
      { status: 404, answeredBy: "endpoint" },
    );
    await expectSameAnswer(
      {
        method: "POST",
        url: "/api/trpc/rounds.vote",
        headers: { ...c.headers, ...json },
        payload: JSON.stringify({ userId: missing.userId, promptId: 1 }),
      },
      { status: 409, answeredBy: "endpoint" },
    );
  });
});

describe("everything else, handed to the adapter", () => {
  it.each<[string, InjectOptions, number]>([
    ["an unknown procedure", { method: "GET", url: "/api/trpc/nope.nothing" }, 404],
    ["a batch of two", { method: "GET", url: "/api/trpc/health.status,schools.list?batch=1" }, 200],
    ["a query sent as POST", { method: "POST", url: "/api/trpc/health.status", headers: json, payload: "{}" }, 405],
    ["a mutation sent as GET", { method: "GET", url: "/api/trpc/rounds.vote" }, 405],
    ["input that is not JSON", { method: "GET", url: "/api/trpc/rounds.preview?input=%7Bnope" }, 400],
    [
      "a body that is not JSON",
      { method: "POST", url: "/api/trpc/auth.sendCode", headers: json, payload: "{nope" },
      400,
    ],
    ["a batch whose input is not an object", { method: "GET", url: "/api/trpc/rounds.preview?batch=1&input=5" }, 400],
    [
      "streaming asked for",
      { method: "GET", url: "/api/trpc/health.status?batch=1", headers: { "trpc-accept": "application/jsonl" } },
      200,
    ],
    ["connection params", { method: "GET", url: "/api/trpc/health.status?connectionParams=1" }, 400],
  ])("%s", async (_name, request, status) => {
    const { fast, official } = await both(request);
    expect(fast.statusCode, fast.body).toBe(status);
    expect(fast.statusCode).toBe(official.statusCode);
    expect(fast.headers["transfer-encoding"]).toBe("chunked");
    expect(fast.body).toBe(official.body);
  });
});

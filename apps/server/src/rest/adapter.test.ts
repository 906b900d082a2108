import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../errors";
import { publicProcedure, router } from "../trpc/init";
import { createContextInner, type AppDeps } from "../trpc/context";
import { testConfig } from "../test/app";
import { registerRestRoutes } from "./adapter";

// A router whose procedure paths match entries of the contracts route table,
// so the adapter mounts them; each misbehaves in a way the edge must map.
const testRouter = router({
  health: router({
    status: publicProcedure.query(() => {
      throw new AppError("PAYMENT_REQUIRED", "You have no unlock credits left.");
    }),
  }),
  schools: router({
    list: publicProcedure.query(() => {
      throw new Error("database password is hunter2");
    }),
  }),
  inbox: router({
    received: publicProcedure
      .input(z.object({ page: z.coerce.number<number>().int().min(1, "page must be at least 1") }))
      .query(({ input }) => ({ page: input.page })),
  }),
  rounds: router({
    open: publicProcedure.query(() => ({ did: "open" })),
    skip: publicProcedure.mutation(() => ({ did: "skip" })),
  }),
  dev: router({ smsOutbox: publicProcedure.query(() => ({ messages: [] })) }),
});

const app = Fastify({ logger: false });
const deps = { config: testConfig(), now: () => new Date() } as unknown as AppDeps;

beforeAll(async () => {
  registerRestRoutes(app, {
    router: testRouter,
    createContext: async (request) => createContextInner(deps, { log: request.log }),
    devRoutesEnabled: false,
  });
  await app.ready();
});
afterAll(() => app.close());

describe("REST adapter", () => {
  it("maps a service error code to its status and message", async () => {
    const res = await app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ message: "You have no unlock credits left.", code: "PAYMENT_REQUIRED" });
  });

  it("hides internals behind a 500 with the generic message", async () => {
    const res = await app.inject({ method: "GET", url: "/api/schools" });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: "An unexpected error occurred", code: "INTERNAL_SERVER_ERROR" });
    expect(res.body).not.toContain("hunter2");
  });

  it("answers bad input with 400 and field messages from the schema", async () => {
    const res = await app.inject({ method: "GET", url: "/api/votes/for-user?page=0" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { page: ["page must be at least 1"] } });
    const ok = await app.inject({ method: "GET", url: "/api/votes/for-user?page=3" });
    expect(ok.json()).toEqual({ page: 3 });
  });

  it("sends a documented path's switch to its own procedure: GET /prompts/random?skip=true is rounds.skip", async () => {
    const answer = async (query: string) => {
      const res = await app.inject({ method: "GET", url: `/api/prompts/random${query}` });
      return { status: res.statusCode, body: res.json() as unknown };
    };
    expect(await answer("")).toEqual({ status: 200, body: { did: "open" } });
    expect(await answer("?skip=false")).toEqual({ status: 200, body: { did: "open" } });
    expect(await answer("?skip=true")).toEqual({ status: 200, body: { did: "skip" } });
    expect(await answer("?skip=maybe")).toMatchObject({ status: 400, body: { code: "BAD_REQUEST" } });
    expect(await answer("?skip=true&extra=1")).toMatchObject({ status: 400, body: { code: "BAD_REQUEST" } });
  });

  it("does not mount development routes when they are off", async () => {
    const res = await app.inject({ method: "GET", url: "/api/dev/sms-outbox" });
    expect(res.statusCode).toBe(404);
  });

  it("does not mount routes whose procedure does not exist", async () => {
    const res = await app.inject({ method: "GET", url: "/api/users/me" });
    expect(res.statusCode).toBe(404);
  });
});

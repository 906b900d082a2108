import { createTestApp, type TestApp } from "@quad/server/test/app";
import { afterEach, describe, expect, it } from "vitest";
import { registerBenchRoutes } from "./routes";

const paths = [
  "/api/bench/select1",
  "/api/bench/caller/select1",
  "/api/bench/trpc/select1",
  "/api/bench/trpc-adapter/select1",
];

describe("bench ceiling routes", () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  it("answer SELECT 1 over plain Fastify, createCaller, the tRPC endpoint and the official adapter, added as a plugin", async () => {
    t = await createTestApp({ plugins: [registerBenchRoutes] });
    for (const url of paths) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      const body = res.json();
      expect(url.includes("/trpc") ? body.result.data : body, url).toEqual({ ok: true });
    }
  });

  it("are not the app's: it alone serves none of them", async () => {
    t = await createTestApp();
    for (const url of paths) expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(404);
  });
});

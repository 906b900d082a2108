import { Round, SKIPS_IN_A_ROW } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registry } from "../metrics/registry";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";

/**
 * The fourth hostile review, over what landed last: REST's skip switch on
 * GET /prompts/random, the health endpoints and the request metrics. Each
 * attack here held but one: HEAD /prompts/random?skip=true (Fastify serves
 * HEAD with the GET route's handler) skipped the open round, spending a
 * skip on a request whose answer nobody reads; HEAD now goes to rounds.open.
 */
let t: TestApp;
let c: Awaited<ReturnType<typeof campus>>;
beforeAll(async () => {
  t = await createTestApp({ env: { METRICS_PORT: "0" } });
  c = await campus(t);
  for (let i = 0; i < 6; i++) await c.student();
}, 60_000);
afterAll(() => t?.close());

const openRound = async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/prompts/random", headers: c.headers });
  expect(res.statusCode, res.body).toBe(200);
  return Round.parse(res.json());
};
const roundKey = (round: Round) => JSON.stringify([round.prompt.id, round.users.map((u) => u.id)]);

describe("REST's skip switch reaches rounds.skip only with skip=true, and only within the allowance", () => {
  it("odd spellings of skip are refused with 400 and skip nothing", async () => {
    const before = roundKey(await openRound());
    for (const query of [
      "skip=true&skip=false",
      "skip=false&skip=true",
      "skip[]=true",
      "skip[0]=true",
      "skip=TRUE",
      "skip=True",
      "skip=1",
      "skip=yes",
      "skip=",
      "Skip=true",
      "skip=true&to=admin.removeProfile",
      "skip=true&path=account.delete",
      "skip=true&input=%7B%7D",
      "skip=true%00",
      "skip=%74rue&skip=true",
    ]) {
      const res = await t.app.inject({ method: "GET", url: `/api/prompts/random?${query}`, headers: c.headers });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
    }
    expect(roundKey(await openRound())).toBe(before);
  });

  it("the switch is GET's only: other methods and tRPC's open do not skip", async () => {
    const before = roundKey(await openRound());
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const res = await t.app.inject({ method, url: "/api/prompts/random?skip=true", headers: c.headers });
      expect(res.statusCode, `${method}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    // rounds.open over tRPC takes no input: a skip flag there is ignored or refused, never a skip.
    const trpc = await t.app.inject({
      method: "GET",
      url: `/api/trpc/rounds.open?input=${encodeURIComponent(JSON.stringify({ skip: true }))}`,
      headers: c.headers,
    });
    expect(trpc.statusCode).toBeLessThan(500);
    // A mutation cannot be called as a query, alone or in a batch beside a query, nor a query batch by POST.
    for (const [method, url] of [
      ["GET", "/api/trpc/rounds.skip"],
      ["GET", "/api/trpc/rounds.open,rounds.skip?batch=1"],
      ["GET", "/api/trpc/rounds.skip,rounds.skip?batch=1"],
      ["POST", "/api/trpc/rounds.open,rounds.skip?batch=1"],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: c.headers,
        ...(method === "POST" ? { payload: {} } : {}),
      });
      const failed = res.statusCode >= 400 || /"error"/.test(res.body.split("},{")[1] ?? "");
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
      expect(failed, `${method} ${url}: ${res.body}`).toBe(true);
    }
    expect(roundKey(await openRound())).toBe(before);
  });

  it("HEAD, which Fastify answers with GET's handler, never skips: a safe method changes nothing", async () => {
    const before = roundKey(await openRound());
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: "HEAD", url: "/api/prompts/random?skip=true", headers: c.headers });
      expect(res.statusCode).toBe(200);
    }
    const after = await openRound();
    expect(roundKey(after)).toBe(before);
    expect(after.prompt.skipDisabled).toBe(false);
  });

  it("skips stop at the allowance over REST and tRPC together", async () => {
    const answers: number[] = [];
    for (let i = 0; i < SKIPS_IN_A_ROW + 3; i++) {
      const res =
        i % 2 === 0
          ? await t.app.inject({ method: "GET", url: "/api/prompts/random?skip=true", headers: c.headers })
          : await t.app.inject({ method: "POST", url: "/api/trpc/rounds.skip", headers: c.headers, payload: {} });
      answers.push(res.statusCode);
    }
    expect(answers.filter((s) => s === 200).length).toBe(SKIPS_IN_A_ROW);
    expect(answers.slice(SKIPS_IN_A_ROW).every((s) => s === 409)).toBe(true);
    // Concurrent skips past the allowance do not get through either.
    const burst = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.app.inject({ method: "GET", url: "/api/prompts/random?skip=true", headers: c.headers }),
      ),
    );
    expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(0);
  });
});

describe("health endpoints", () => {
  it("answer without internals, whatever a visitor sends, and never 500", async () => {
    const urls = [
      "/api/health/live",
      "/api/health/ready",
      "/api/health/live?x=1",
      "/api/health/ready?draining=true",
      "/api/health/ready?input=%7B%22draining%22%3Atrue%7D",
      "/api/trpc/health.ready?input=%7B%22draining%22%3Atrue%7D",
      "/api/trpc/health.ready?input=not-json",
      "/api/trpc/health.live,health.ready?batch=1&input=%7B%7D",
      "/api/trpc/health.ready,health.ready,health.ready?batch=1",
      "/api/health/ready/",
      "/api/health/ready%00",
    ];
    for (const url of urls) {
      for (const method of ["GET", "HEAD", "POST", "OPTIONS", "DELETE"] as const) {
        const res = await t.app.inject({ method, url, headers: { "x-forwarded-for": "10.0.0.1" } });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
        expect(res.body).not.toMatch(/stack|postgres:\/\/|at [A-Za-z]+ \(|node_modules/);
      }
    }
    // Readiness is unchanged by any of it.
    const ready = await t.app.inject({ method: "GET", url: "/api/health/ready" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: "ready" });
  });
});

describe("metrics on the public port and their labels", () => {
  it("no spelling of /metrics on the public port answers the registry", async () => {
    for (const url of [
      "/metrics",
      "/metrics/",
      "//metrics",
      "/METRICS",
      "/metrics?x=1",
      "/metrics%2F",
      "/api/metrics",
      "/api/metrics/",
      "/api/trpc/metrics",
      "/api/../metrics",
      "/./metrics",
      "/%6detrics",
    ]) {
      for (const method of ["GET", "HEAD", "POST"] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.body, `${method} ${url}`).not.toContain("process_cpu_seconds_total");
        expect(res.body).not.toContain("quad_http_requests_total");
      }
    }
  });

  it("no request adds a label value beyond the routes, procedures and methods the server has", async () => {
    const odd = [
      "/api/trpc/zz-odd-1.zz",
      "/api/trpc/zz-odd-2,zz-odd-3?batch=1",
      "/api/trpc/zz-odd-4%2Czz",
      "/api/trpc/users.me%2Fzz-odd-5",
      "/api/trpc/",
      "/api/trpc/__proto__",
      "/api/trpc/constructor",
      "/api/trpc/toString",
      "/api/zz-odd-6/x",
      "/zz-odd-7",
      "/api/media/zz-odd-8.jpg",
    ];
    for (const url of odd) {
      for (const method of ["GET", "POST", "PROPFIND", "MKCOL", "SEARCH", "PURGE", "OPTIONS", "TRACE"] as const) {
        await t.app.inject({ method: method as "GET", url });
      }
    }
    const text = await registry.metrics();
    expect(text).not.toMatch(/zz-odd/);
    expect(text).not.toMatch(/__proto__|constructor|toString/);
    const routes = new Set([...text.matchAll(/quad_http_requests_total\{[^}]*route="([^"]*)"/g)].map((m) => m[1]));
    for (const route of routes) expect(route).toMatch(/^(\/|trpc:(batch|unknown|[a-zA-Z]+\.[a-zA-Z]+)$|unmatched$)/);
  });
});

import { routeList, type RouteDef } from "@quad/contracts";
import type { AnyTRPCProcedure } from "@trpc/server";
import fc from "fast-check";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";
import { appRouter } from "../trpc/root";

/**
 * No input answers 5xx. For every route of the contracts table (REST) and
 * every tRPC procedure, fast-check draws inputs shaped like the route's
 * schema (its keys, its enum and literal values) whose values come from
 * boundary cases (int4 and smallint edges, huge and odd numbers, long and
 * odd strings) and arbitrary JSON, signed in or not, after trying each field
 * alone at each value past a column's range; bodies nested thousands deep or
 * tens of thousands wide, whole or in one field; then a fixed corpus of
 * bodies no client should send (malformed JSON and multipart). A 5xx here is
 * a rule the contracts or the edges miss.
 */

const RUNS = 25;
const UUID = "00000000-0000-4000-8000-000000000000";
const NUMBERS = [
  0,
  -1,
  1,
  2,
  12,
  2025,
  2029,
  32_767,
  32_768,
  100_000,
  2_147_483_647,
  2_147_483_648,
  -2_147_483_649,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  0.5,
  -0,
];
const STRINGS = [
  "",
  " ",
  "0",
  "-1",
  "2147483648",
  "-2147483649",
  "1e400",
  "NaN",
  "Infinity",
  "true",
  "null",
  "[]",
  "{}",
  "0x7fffffff",
  "x".repeat(5000),
  "\u0000",
  "a\u0000b",
  "\u001b[2J",
  "\u0007",
  "\u007f",
  "\u0085",
  "line\nbreak",
  "💥",
  "'; select 1; --",
  "../../etc/passwd",
  UUID,
  "+12025550123",
  "+18765551234",
  "unlock-1",
  "female",
  "other",
  "@handle",
];

const leaf = fc.oneof(
  fc.constantFrom(...NUMBERS),
  fc.constantFrom(...STRINGS),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 40 }),
  // Any code point, control characters included.
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.boolean(),
  fc.constant(null),
);
const anyValue = fc.oneof(
  { depthSize: "small" },
  leaf,
  fc.array(leaf, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), leaf, { maxKeys: 3 }),
);

/** Values for a schema: its own keys and options, each filled with hostile values. */
function arbitraryFor(schema: z.ZodType | undefined, depth = 0): fc.Arbitrary<unknown> {
  const def = (schema as { def?: Record<string, unknown> } | undefined)?.def;
  if (!def || depth > 4) return anyValue;
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      const fields = Object.fromEntries(
        Object.entries(shape).map(([key, field]) => [key, arbitraryFor(field, depth + 1)]),
      );
      return fc.oneof(fc.record(fields, { requiredKeys: [] }), anyValue);
    }
    case "union":
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => arbitraryFor(option, depth + 1)));
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return arbitraryFor(def.innerType as z.ZodType, depth + 1);
    case "pipe":
      return arbitraryFor(def.in as z.ZodType, depth + 1);
    case "enum":
      return fc.oneof(fc.constantFrom(...Object.values(def.entries as Record<string, string>)), anyValue);
    case "literal":
      return fc.oneof(fc.constantFrom(...(def.values as unknown[])), anyValue);
    default:
      return anyValue;
  }
}

/** Values just past what columns and parsers hold, tried in every field of every input. */
const EDGES = [
  2_147_483_648,
  -2_147_483_649,
  32_768,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  "2147483648",
  "1e400",
  "x".repeat(5000),
  "Ab\u0000cd",
];

/** Inputs with one field at an edge value each (the rest left out), besides the drawn ones. */
function edgeExamples(schema: z.ZodType | undefined): unknown[] {
  const def = (schema as { def?: Record<string, unknown> } | undefined)?.def;
  if (def?.type === "pipe") return edgeExamples(def.in as z.ZodType);
  if (def?.type !== "object") return [];
  return Object.keys(def.shape as object).flatMap((key) => EDGES.map((value) => ({ [key]: value })));
}

/**
 * A body too deep for JSON.stringify (its recursion overflows before the
 * server's would), so written as text: the whole input or one field's value.
 */
class RawJson {
  constructor(
    readonly json: string,
    readonly field?: string,
  ) {}
}
const nested = (depth: number, open: string, close: string) => open.repeat(depth) + "1" + close.repeat(depth);
/** Deep arrays and objects, and wide arrays and objects (each under the 1 MB body limit). */
const hugeJson = fc.oneof(
  fc.integer({ min: 40, max: 50_000 }).map((depth) => nested(depth, "[", "]")),
  fc.integer({ min: 40, max: 20_000 }).map((depth) => nested(depth, '{"a":', "}")),
  fc.integer({ min: 1_000, max: 50_000 }).map((width) => `[${Array(width).fill('"x"').join(",")}]`),
  fc
    .integer({ min: 1_000, max: 30_000 })
    .map((width) => `{${Array.from({ length: width }, (_, i) => `"k${i}":1`).join(",")}}`),
);
function hugeFor(schema: z.ZodType | undefined): fc.Arbitrary<RawJson> {
  let def = (schema as { def?: Record<string, unknown> } | undefined)?.def;
  if (def?.type === "pipe") def = (def.in as { def?: Record<string, unknown> }).def;
  const keys = def?.type === "object" ? Object.keys(def.shape as object) : [];
  const whole = hugeJson.map((json) => new RawJson(json));
  if (keys.length === 0) return whole;
  const inField = fc
    .tuple(fc.constantFrom(...keys), hugeJson)
    .map(([key, json]) => new RawJson(`{${JSON.stringify(key)}:${json}}`, key));
  return fc.oneof(whole, inField);
}
const bodyOf = (input: unknown) => (input instanceof RawJson ? input.json : JSON.stringify(input));

/** A query string as a browser would send the input: keys with text values. */
function queryOf(input: unknown): string {
  if (input instanceof RawJson) {
    const value = input.field ? input.json.slice(JSON.stringify(input.field).length + 2, -1) : input.json;
    return `?${encodeURIComponent(input.field ?? "value")}=${encodeURIComponent(value)}`;
  }
  if (typeof input !== "object" || input === null)
    return input === undefined ? "" : `?value=${encodeURIComponent(String(input))}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      params.append(key, typeof item === "object" && item !== null ? JSON.stringify(item) : String(item));
    }
  }
  return `?${params}`;
}

let t: TestApp;
let signedIn: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ demo: false });
  signedIn = (await campus(t)).headers;
});
afterAll(() => t?.close());

const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;
const routeOf = new Map(routeList.map((route) => [route.procedure, route]));
// Deleting the account ends the signed-in student: drawn last.
const last = (name: string) => (name === "account.delete" ? 1 : 0);
const restRoutes = [...routeList].sort((a, b) => last(a.procedure) - last(b.procedure));
const trpcProcedures = Object.keys(procedures).sort((a, b) => last(a) - last(b));

/** Draws inputs for a route (plus its edge examples, signed in), sends them, and fails on any 5xx. */
async function expectNo5xx(schema: z.ZodType | undefined, request: (input: unknown) => InjectOptions) {
  const examples = edgeExamples(schema).map((input): [InjectOptions, boolean] => [request(input), true]);
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(arbitraryFor(schema), hugeFor(schema)).map(request),
      fc.boolean(),
      async (options, withSession) => {
        const res = await t.app.inject({
          ...options,
          headers: { ...options.headers, ...(withSession ? signedIn : {}) },
        });
        if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body}`);
      },
    ),
    { numRuns: RUNS + examples.length, examples },
  );
}

describe("no input answers 5xx", { timeout: 120_000 }, () => {
  it.each(restRoutes.map((route): [string, RouteDef] => [`${route.method} /api${route.path}`, route]))(
    "REST %s",
    async (_name, route) => {
      const url = `/api${route.path}`;
      await expectNo5xx(route.input, (input) =>
        route.method === "GET"
          ? { method: "GET", url: `${url}${queryOf(input)}` }
          : {
              method: route.method,
              url,
              headers: { "content-type": "application/json" },
              payload: input === undefined ? "" : bodyOf(input),
            },
      );
    },
  );

  it.each(trpcProcedures)("tRPC %s", async (name) => {
    const type = procedures[name]!._def.type;
    await expectNo5xx(routeOf.get(name)?.input, (input) => {
      const json = input === undefined ? undefined : bodyOf(input);
      return type === "query"
        ? { method: "GET", url: `/api/trpc/${name}${json === undefined ? "" : `?input=${encodeURIComponent(json)}`}` }
        : {
            method: "POST",
            url: `/api/trpc/${name}`,
            headers: { "content-type": "application/json" },
            payload: json ?? "",
          };
    });
  });

  const boundary = "b0und4ry";
  const MALFORMED: [name: string, options: InjectOptions][] = [
    [
      "JSON that does not parse",
      { method: "POST", url: "/api/votes/store", headers: { "content-type": "application/json" }, payload: "{" },
    ],
    [
      "a number past double",
      {
        method: "PATCH",
        url: "/api/users/update",
        headers: { "content-type": "application/json" },
        payload: '{"university": 1e999}',
      },
    ],
    [
      "a prototype key",
      {
        method: "PATCH",
        url: "/api/users/update",
        headers: { "content-type": "application/json" },
        payload: '{"__proto__": {"isVerified": true}}',
      },
    ],
    [
      "text where JSON goes",
      { method: "POST", url: "/api/safety/report", headers: { "content-type": "text/plain" }, payload: "report" },
    ],
    [
      "an unknown content type",
      { method: "POST", url: "/api/auth/send-code", headers: { "content-type": "application/x-custom" }, payload: "x" },
    ],
    ["tRPC input that is not JSON", { method: "GET", url: "/api/trpc/inbox.received?input=%7Bnot" }],
    [
      "a tRPC batch with holes",
      {
        method: "GET",
        url: `/api/trpc/users.me,inbox.received?batch=1&input=${encodeURIComponent('{"1":{"limit":2147483648}}')}`,
      },
    ],
    [
      "a tRPC batch past its size",
      { method: "GET", url: `/api/trpc/${Array(20).fill("health.status").join(",")}?batch=1` },
    ],
    ["an unknown tRPC procedure", { method: "POST", url: "/api/trpc/users.nope", payload: {} }],
    ["a tRPC mutation as GET", { method: "GET", url: "/api/trpc/rounds.vote" }],
    [
      "multipart cut short",
      {
        method: "PATCH",
        url: "/api/users/update",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nAv`,
      },
    ],
    [
      "multipart without a boundary",
      {
        method: "PATCH",
        url: "/api/users/update",
        headers: { "content-type": "multipart/form-data" },
        payload: `--${boundary}\r\n\r\n--${boundary}--\r\n`,
      },
    ],
    [
      "multipart with a header that never ends",
      {
        method: "PATCH",
        url: "/api/users/update",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="x"`,
      },
    ],
    [
      "multipart with a file cut short",
      {
        method: "PATCH",
        url: "/api/users/update",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="profileImage"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff`,
      },
    ],
    [
      "multipart with two files",
      {
        method: "PATCH",
        url: "/api/users/update",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        payload:
          [1, 2]
            .map(
              (i) =>
                `--${boundary}\r\nContent-Disposition: form-data; name="profileImage"; filename="${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\nxx\r\n`,
            )
            .join("") + `--${boundary}--\r\n`,
      },
    ],
    [
      "multipart with a huge university",
      {
        method: "PATCH",
        url: "/api/users/update",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="university"\r\n\r\n2147483648\r\n--${boundary}--\r\n`,
      },
    ],
    [
      "a wrong content type on the upload",
      { method: "PATCH", url: "/api/users/update", headers: { "content-type": "image/png" }, payload: "\x89PNG" },
    ],
  ];

  it.each(MALFORMED)("%s", async (_name, options) => {
    for (const headers of [{}, signedIn]) {
      const res = await t.app.inject({ ...options, headers: { ...options.headers, ...headers } });
      expect(res.statusCode, res.body).toBeLessThan(500);
    }
  });
});

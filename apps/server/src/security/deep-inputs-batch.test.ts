import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";

/**
 * A hostile student against "deeply nested JSON answers 400, not 500"
 * (trpc/control-characters.ts): the shapes no-5xx.test.ts does not send. A
 * tRPC batch whose second call is deep, a GET's ?input= nested deep, depth 32
 * and 33 exactly, deep nesting under a key with a control character, and deep
 * empty containers (which the walk skips). All answer 4xx, none 5xx.
 */
let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  headers = (await campus(t)).headers;
});
afterAll(() => t?.close());

/** JSON text nested `depth` deep (objects and arrays in turn), written as text: JSON.stringify recurses. */
const nest = (depth: number, leaf = "1"): string => {
  let open = "";
  let close = "";
  for (let i = 0; i < depth; i++) {
    open += i % 2 ? "[" : '{"a":';
    close = (i % 2 ? "]" : "}") + close;
  }
  return open + leaf + close;
};

describe("deep inputs the sweep does not send", () => {
  it.each([
    [
      "a batch of a fine call and a 10 000-deep one",
      "POST",
      "/api/trpc/users.update,users.update?batch=1",
      `{"0":{"firstName":"Ok"},"1":${nest(10_000)}}`,
    ],
    ["a GET's input 5 000 deep", "GET", `/api/trpc/inbox.received?input=${encodeURIComponent(nest(5_000))}`, undefined],
    [
      "a batched GET with one deep input",
      "GET",
      `/api/trpc/inbox.received,inbox.newVotes?batch=1&input=${encodeURIComponent(`{"0":{},"1":${nest(3_000)}}`)}`,
      undefined,
    ],
    ["depth 33 in a real field", "POST", "/api/trpc/users.update", `{"organizations":${nest(33, '"x"')}}`],
    ["depth 32 in a real field", "POST", "/api/trpc/users.update", `{"organizations":${nest(31, '"x"')}}`],
    ["deep under a key with a NUL", "POST", "/api/trpc/users.update", `{"a\\u0000":${nest(5_000)}}`],
    ["deep empty arrays", "POST", "/api/trpc/users.update", `{"organizations":${nest(5_000, "[]")}}`],
    ["REST, deep in a field", "PATCH", "/api/users/update", `{"interests":${nest(20_000)}}`],
    ["REST, a deep cursor in the query", "GET", "/api/votes/for-user?cursor[a][b][c]=1", undefined],
  ] as const)("%s answers 4xx", async (_name, method, url, payload) => {
    const res = await t.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload, headers: { ...headers, "content-type": "application/json" } }),
    });
    const statuses = res.body.startsWith("[")
      ? (JSON.parse(res.body) as { error?: { data?: { httpStatus?: number } } }[]).map(
          (r) => r.error?.data?.httpStatus ?? 200,
        )
      : [res.statusCode];
    for (const status of [res.statusCode, ...statuses]) expect(status, res.body.slice(0, 300)).toBeLessThan(500);
    expect(
      statuses.some((s) => s >= 400),
      res.body.slice(0, 300),
    ).toBe(true);
  });
});

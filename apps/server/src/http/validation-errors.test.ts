import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";

/**
 * Input that fails its contracts schema is answered alike over REST and tRPC:
 * the same human message (the first field's) and the same field errors,
 * never zod's issue list as JSON (which showed the regexes).
 */
let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  headers = (await campus(t)).headers;
});
afterAll(() => t?.close());

const UUID = "00000000-0000-4000-8000-000000000000";
type Case = [procedure: string, method: "GET" | "POST" | "PATCH", rest: string, input: Record<string, unknown>];
const CASES: Case[] = [
  ["auth.sendCode", "POST", "/api/auth/send-code", { phone: "555-0123" }],
  ["auth.sendCode", "POST", "/api/auth/send-code", { phone: "+18765551234" }],
  ["auth.verifyCode", "POST", "/api/auth/verify-code", { phone: "+12025550123", code: "12ab" }],
  ["rounds.vote", "POST", "/api/votes/store", { userId: "someone", promptId: 1 }],
  ["rounds.vote", "POST", "/api/votes/store", { userId: UUID, promptId: 2147483648 }],
  ["users.update", "PATCH", "/api/users/update", { university: 2147483648 }],
  ["users.update", "PATCH", "/api/users/update", { firstName: "A", instagramHandle: "not a handle" }],
  ["safety.report", "POST", "/api/safety/report", { target: { userId: UUID }, reason: "other" }],
  ["account.delete", "POST", "/api/users/delete-account", { confirm: "yes" }],
  ["rounds.preview", "GET", "/api/prompts/unauthenticated", { gender: "robot" }],
  ["inbox.received", "GET", "/api/votes/for-user", { limit: "999" }],
];

describe("validation errors", () => {
  it.each(CASES)("%s %j: the tRPC message and field errors are REST's", async (procedure, method, url, input) => {
    const rest =
      method === "GET"
        ? await t.app.inject({ method, url: `${url}?${new URLSearchParams(input as Record<string, string>)}`, headers })
        : await t.app.inject({ method, url, payload: input, headers });
    const trpc =
      method === "GET"
        ? await t.app.inject({
            method,
            url: `/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`,
            headers,
          })
        : await t.app.inject({ method: "POST", url: `/api/trpc/${procedure}`, payload: input, headers });

    expect(rest.statusCode).toBe(400);
    expect(trpc.statusCode).toBe(400);
    const body = rest.json<{ message: string; fieldErrors: Record<string, string[]> }>();
    const error = trpc.json<{ error: { message: string; data: { fieldErrors: Record<string, string[]> } } }>().error;
    expect(error.message).toBe(body.message);
    expect(error.data.fieldErrors).toEqual(body.fieldErrors);
    // A sentence for a person: the first field's message, not a dump of issues.
    expect(error.message).toBe(Object.values(body.fieldErrors)[0]![0]);
    expect(error.message).not.toMatch(/^[[{]/);
  });
});

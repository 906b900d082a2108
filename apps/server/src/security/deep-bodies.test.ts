import { ERROR_MESSAGES, MAX_INPUT_DEPTH } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorReporter } from "../error-reports/reporter";
import { createTestApp, type TestApp } from "../test/app";

/**
 * A stranger without a token sends bodies nested far deeper than any input
 * (a few kilobytes of brackets) to the sign-in routes, over REST and tRPC:
 * each must be a 400 with the usual error body, not a 500 that files an
 * error report (enough of them spend the reporting quota and page the team).
 */

const reports: string[] = [];
const reporter: ErrorReporter = {
  capture: (error) => void reports.push(error.message),
  flush: async () => true,
};
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ errorReporter: reporter, env: { LOG_LEVEL: "error" }, logStream: { write: () => {} } });
});
afterAll(() => t?.close());

const nested = (depth: number, leaf = "1") => "[".repeat(depth) + leaf + "]".repeat(depth);
const ROUTES = [
  ["/api/auth/send-code", "/api/trpc/auth.sendCode"],
  ["/api/auth/verify-code", "/api/trpc/auth.verifyCode"],
  ["/api/users/school-email/send-code", "/api/trpc/schoolEmail.sendCode"],
] as const;

async function post(url: string, payload: string) {
  const res = await t.app.inject({ method: "POST", url, headers: { "content-type": "application/json" }, payload });
  const body = res.json() as Record<string, unknown>;
  const error = (body.error ?? body) as { message?: string; data?: { code?: string } };
  return { status: res.statusCode, body, message: error.message, raw: res.body };
}

describe("deeply nested bodies", () => {
  it.each(ROUTES.flat())("are a 400 with the error body, and no error report (%s)", async (url) => {
    for (const depth of [100_000, 5_000, MAX_INPUT_DEPTH + 1]) {
      const res = await post(url, `{"phone": ${nested(depth)}, "email": ${nested(depth, '"a@b.edu"')}}`);
      expect(reports, `${res.status} ${res.raw.slice(0, 200)}`).toEqual([]);
      // Without a token, a session route says so first; the sign-in routes read the body.
      if (/school-?email/i.test(url)) {
        expect(res.status).toBe(401);
        continue;
      }
      expect(res.status, res.raw.slice(0, 200)).toBe(400);
      if (url.includes("/trpc/")) expect(res.message).toBe(ERROR_MESSAGES.tooDeep);
      else expect(res.body).toEqual({ message: ERROR_MESSAGES.tooDeep, code: "BAD_REQUEST" });
    }
  });

  it.each(ROUTES.flat().filter((url) => url.includes("auth")))(
    "inputs as deep as the limit still reach their schema (%s)",
    async (url) => {
      const res = await post(url, `{"phone": ${nested(MAX_INPUT_DEPTH - 1)}}`);
      expect(res.status).toBe(400);
      expect(res.message).not.toBe(ERROR_MESSAGES.tooDeep);
    },
  );

  it.each(ROUTES.flat())(
    "a wide body (fifty thousand keys, or items, under the size limit) is no 5xx either (%s)",
    async (url) => {
      const keys = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
      const items = Array.from({ length: 50_000 }, () => "x");
      for (const payload of [JSON.stringify(keys), JSON.stringify({ phone: items, email: items })]) {
        const res = await post(url, payload);
        expect(res.status, res.raw.slice(0, 200)).toBeLessThan(500);
        expect(res.status).not.toBe(413);
      }
      expect(reports).toEqual([]);
    },
  );
});

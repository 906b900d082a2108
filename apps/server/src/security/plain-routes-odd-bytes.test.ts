import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWebDist } from "../test/web-dist";
import { createTestApp, type TestApp } from "../test/app";

/**
 * The plain routes (not procedures) answer odd bytes with a 4xx, never a 500.
 * Each case below once answered 500:
 * - GET /api/media/<key>: a key the pattern accepts but the file system
 *   cannot name (a part longer than 255 bytes: ENAMETOOLONG) is read anyway,
 *   and only "no such file" is treated as not found.
 * - The web app's history fallback (GET /<anything> that is not /api): the
 *   path goes to statSync, which throws for a NUL byte, a name too long, or
 *   a path through a file (ENOTDIR); only "no such entry" is suppressed.
 * - POST /api/sms/status (unsigned where the development routes are on and
 *   no Twilio token is set): the status is looked up in a plain object, so
 *   "constructor", "toString" or "__proto__" find Object.prototype's members
 *   and are written to the database as a status.
 */
let t: TestApp;
let web: Awaited<ReturnType<typeof createTestWebDist>>;

beforeAll(async () => {
  web = await createTestWebDist();
  t = await createTestApp({ webDistDir: web.dir });
});
afterAll(async () => {
  await t?.close();
  await web?.remove();
});

const long = "a".repeat(300);

describe("media route", () => {
  it("GET /api/media/<a 300-character name>.jpg is not a 500", async () => {
    const res = await t.app.inject({ method: "GET", url: `/api/media/${long}.jpg` });
    expect(res.statusCode, res.body).toBeLessThan(500);
  });
});

describe("the web app's history fallback", () => {
  it.each([
    ["a NUL", "/%00"],
    ["a NUL in a page's name", "/settings%00"],
    ["a 300-character name", `/${long}`],
    ["a path through a file", "/index.html/x"],
    ["a path through an asset", "/assets/app-abc123.js/x"],
  ])("GET with %s is not a 500", async (_, url) => {
    const res = await t.app.inject({ method: "GET", url, headers: { accept: "text/html" } });
    expect(res.statusCode, res.body).toBeLessThan(500);
  });
});

describe("SMS status webhook", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])(
    "MessageStatus=%s answers a 2xx or 4xx, not a 500",
    async (status) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/sms/status",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: `MessageSid=SM123&MessageStatus=${status}`,
      });
      expect(res.statusCode, res.body).toBeLessThan(500);
    },
  );
});

import { randomBytes } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "@quad/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAppOn, type TestApp } from "../test/app";
import { API_DOCS_PREFIX } from "./docs";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.close());

const appIn = (env: Record<string, string>) => createTestAppOn(database.db, database.kind, { env });

describe("interactive API docs in development", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appIn({ NODE_ENV: "development" });
  });
  afterAll(() => t?.close());

  it("serves Swagger UI whose page loads only its own scripts and styles, under the app's CSP", async () => {
    const page = await t.app.inject({ method: "GET", url: `${API_DOCS_PREFIX}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    const csp = String(page.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-eval");
    // No inline script or style element: the strict CSP would block them.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.body).not.toContain("<style");
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const url = new URL(src, `http://localhost${API_DOCS_PREFIX}/`).pathname;
      const script = await t.app.inject({ method: "GET", url });
      expect(script.statusCode, url).toBe(200);
      expect(script.headers["content-type"], url).toMatch(/javascript/);
    }
  });

  it("shows the app's OpenAPI document, calling the origin the docs were opened from", async () => {
    const served = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    const res = await t.app.inject({
      method: "GET",
      url: `${API_DOCS_PREFIX}/json`,
      headers: { host: "localhost:5173" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...served, servers: [{ url: "http://localhost:5173" }] });
  });
});

describe("interactive API docs in production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appIn({
      NODE_ENV: "production",
      PUBLIC_URL: "https://quad.example.edu/",
      ALLOW_DEV_PROVIDERS: "true",
      JWT_SECRET: randomBytes(48).toString("base64"),
    });
  });
  afterAll(() => t?.close());

  it("are not served", async () => {
    for (const url of [
      API_DOCS_PREFIX,
      `${API_DOCS_PREFIX}/`,
      `${API_DOCS_PREFIX}/json`,
      `${API_DOCS_PREFIX}/static/swagger-ui-bundle.js`,
    ]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: "NOT_FOUND" });
    }
    expect((await t.app.inject({ method: "GET", url: "/api/openapi.json" })).statusCode).toBe(200);
  });

  it("the OpenAPI document names PUBLIC_URL as its server, never the development address", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/openapi.json", headers: { host: "localhost:5173" } });
    expect(res.json().servers).toEqual([{ url: "https://quad.example.edu" }]);
    expect(res.body).not.toContain("localhost");
  });
});

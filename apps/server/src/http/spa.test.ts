import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";

/** The web build writes .br/.gz beside its assets; the server picks what the browser accepts. */
describe("precompressed web assets", () => {
  let t: TestApp;
  let webDir: string;
  const script = "console.log('quad');".repeat(200);

  beforeAll(async () => {
    webDir = await mkdtemp(path.join(tmpdir(), "quad-web-"));
    await mkdir(path.join(webDir, "assets"));
    const html = "<!doctype html><title>Quad</title><div id=root></div>";
    await writeFile(path.join(webDir, "index.html"), html);
    await writeFile(path.join(webDir, "index.html.br"), brotliCompressSync(html));
    await writeFile(path.join(webDir, "assets", "app-abc123.js"), script);
    await writeFile(path.join(webDir, "assets", "app-abc123.js.br"), brotliCompressSync(script));
    await writeFile(path.join(webDir, "assets", "app-abc123.js.gz"), gzipSync(script));
    t = await createTestApp({ webDistDir: webDir });
  });
  afterAll(async () => {
    await t?.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it("sends Brotli, then gzip, then the plain file, always as JavaScript and cached for good", async () => {
    const url = "/assets/app-abc123.js";
    for (const [accept, encoding] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["identity", undefined],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": accept } });
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers["content-encoding"], accept).toBe(encoding);
      expect(res.headers["content-type"], accept).toMatch(/javascript/);
      expect(res.headers["cache-control"], accept).toBe("public, max-age=31536000, immutable");
      expect(String(res.headers.vary), accept).toMatch(/accept-encoding/i);
      if (!encoding) expect(res.body).toBe(script);
      else expect(res.rawPayload.length, accept).toBeLessThan(script.length / 4);
    }
  });

  it("sends index.html compressed too, still revalidated on every visit", async () => {
    for (const url of ["/", "/some/deep/link"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "br", accept: "text/html" } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-encoding"], url).toBe("br");
      expect(res.headers["content-type"], url).toMatch(/text\/html/);
      expect(res.headers["cache-control"], url).toBe("no-cache");
    }
  });
});

/** index.html carries the prerendered landing page; every other route gets the plain shell. */
describe("the prerendered landing page", () => {
  let t: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = await mkdtemp(path.join(tmpdir(), "quad-web-"));
    await writeFile(
      path.join(webDir, "index.html"),
      "<!doctype html><div id=root><div data-prerendered><h1>Vote on your classmates</h1></div></div>",
    );
    await writeFile(path.join(webDir, "app.html"), "<!doctype html><div id=root></div>");
    t = await createTestApp({ webDistDir: webDir });
  });
  afterAll(async () => {
    await t?.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it("is sent at / only; deep links get the shell, so /login never shows the landing first", async () => {
    const home = await t.app.inject({ method: "GET", url: "/", headers: { accept: "text/html" } });
    expect(home.body).toContain("data-prerendered");
    for (const url of ["/login", "/home", "/some/deep/link"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { accept: "text/html" } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe("<!doctype html><div id=root></div>");
    }
  });
});

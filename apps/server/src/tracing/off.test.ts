import { readFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleServer } from "../../bundle.mjs";
import { createTestApp, testConfig, type TestApp } from "../test/app";
import { loadTracing } from "./tracing";

const SERVER_DIR = path.resolve(import.meta.dirname, "../..");

/** The tracing SDK's packages: every OpenTelemetry dependency of the server but the API, and @fastify/otel. */
async function sdkPackages(): Promise<string[]> {
  const pkg = JSON.parse(await readFile(path.join(SERVER_DIR, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  return Object.keys(pkg.dependencies).filter(
    (name) => (name.startsWith("@opentelemetry/") && name !== "@opentelemetry/api") || name === "@fastify/otel",
  );
}

describe("with OTEL_EXPORTER_OTLP_ENDPOINT unset", () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: "info" }, logStream: { write: (line) => void lines.push(line) } });
  });
  afterAll(() => t?.close());

  it("nothing is started, registered or recorded, and the request's log line is as before", async () => {
    expect(await loadTracing(testConfig())).toBeUndefined();
    expect(t.deps.tracing).toBeUndefined();
    expect(t.app.hasPlugin("@fastify/otel")).toBe(false);
    const res = await t.app.inject({ method: "GET", url: "/api/schools" });
    expect(res.statusCode).toBe(200);
    // No tracer provider was registered: the API's tracers make spans that record nothing.
    const span = trace.getTracer("quad").startSpan("probe");
    expect(span.isRecording()).toBe(false);
    span.end();
    const line = JSON.parse(lines.find((l) => l.includes('"request completed"'))!) as Record<string, unknown>;
    expect(Object.keys(line).sort()).toEqual(
      ["hostname", "level", "msg", "pid", "reqId", "req", "res", "responseTime", "time"].sort(),
    );
  });

  it("the server bundle loads no SDK package at start: each is imported only when tracing starts", async () => {
    const outdir = await mkdtemp(path.join(tmpdir(), "quad-bundle-"));
    try {
      await bundleServer({ entries: { server: path.join(SERVER_DIR, "src/index.ts") }, outdir });
      const bundle = await readFile(path.join(outdir, "bin/server.mjs"), "utf8");
      const staticImports = [...bundle.matchAll(/^import\s(?:[^"'()]*?\sfrom\s*)?["']([^"']+)["']/gm)].map((m) => m[1]);
      expect(staticImports.length).toBeGreaterThan(10);
      for (const name of await sdkPackages()) {
        expect(staticImports, `${name} is imported at start`).not.toContain(name);
        expect(bundle, `${name} is never imported`).toContain(`import("${name}")`);
      }
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});

import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { Round } from "@quad/contracts";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";
import { querySummary } from "./statement-spans";

/**
 * Tracing on (OTEL_EXPORTER_OTLP_ENDPOINT set), spans read from memory: real
 * HTTP requests to the real app on a real database (PGlite, or Postgres with
 * TEST_DATABASE_URL), over REST, a tRPC batch and a tRPC mutation.
 */
describe("traces", () => {
  const exporter = new InMemorySpanExporter();
  const lines: string[] = [];
  let t: TestApp;
  let base: string;
  let c: Awaited<ReturnType<typeof campus>>;

  beforeAll(async () => {
    t = await createTestApp({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", LOG_LEVEL: "info" },
      spanExporter: exporter,
      logStream: { write: (line) => void lines.push(line) },
    });
    c = await campus(t);
    for (let i = 0; i < 4; i++) await c.student({ gender: "female" });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t?.close());

  /** Sends a request and answers its spans (one trace) and its log line, once both are written. */
  async function traced(path: string, init: RequestInit = {}) {
    exporter.reset();
    lines.length = 0;
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...c.headers, ...init.headers } });
    const body = (await res.json()) as unknown;
    expect(res.status, JSON.stringify(body)).toBe(200);
    await expect.poll(() => lines.some((line) => line.includes('"request completed"'))).toBe(true);
    const spans = exporter.getFinishedSpans();
    const http = spans.filter((s) => s.kind === SpanKind.SERVER);
    expect(http).toHaveLength(1);
    const log = JSON.parse(lines.find((line) => line.includes('"request completed"'))!) as Record<string, unknown>;
    return { body, spans, http: http[0]!, log };
  }

  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
  const idOf = (span: ReadableSpan) => span.spanContext().spanId;

  /** HTTP span ⊃ one span per procedure call ⊃ one span per statement it sent; all one trace, without values. */
  function expectTree(spans: ReadableSpan[], http: ReadableSpan, procedures: string[]) {
    const traceId = http.spanContext().traceId;
    expect(spans.every((s) => s.spanContext().traceId === traceId)).toBe(true);
    expect(parentOf(http)).toBeUndefined();
    const calls = spans.filter((s) => s.attributes["rpc.system"] === "trpc");
    expect(calls.map((s) => s.name).sort()).toEqual([...procedures].sort());
    for (const call of calls) {
      expect(parentOf(call)).toBe(idOf(http));
      expect(call.attributes["rpc.method"]).toBe(call.name);
      const statements = spans.filter((s) => parentOf(s) === idOf(call));
      expect(statements.length, `${call.name} sent no statement`).toBeGreaterThan(0);
      for (const statement of statements) {
        expect(statement.kind).toBe(SpanKind.CLIENT);
        expect(statement.attributes["db.system.name"]).toBe("postgresql");
        expect(statement.name).toBe(statement.attributes["db.query.summary"]);
        expect(String(statement.attributes["db.query.text"])).toMatch(/\$1\b/);
      }
    }
    const sql = spans.filter((s) => s.kind === SpanKind.CLIENT);
    expect(sql.every((s) => calls.some((call) => idOf(call) === parentOf(s)) || parentOf(s) === idOf(http))).toBe(true);
    // The phone, the session token and every bound value stay out of every span.
    const everything = JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, status: s.status })));
    expect(everything).not.toContain(c.me.phone.slice(2));
    expect(everything).not.toContain(c.tokens.token);
    return { traceId, calls, sql };
  }

  it("traces a REST request: its route, the procedure, the statements; its log line names the trace", async () => {
    const { spans, http, log } = await traced("/api/users/me?phone=%2B15555550199");
    expect(http.name).toBe("GET /api/users/me");
    expect(http.attributes).toMatchObject({
      "http.request.method": "GET",
      "http.route": "/api/users/me",
      "url.path": "/api/users/me",
      "http.response.status_code": 200,
    });
    const { traceId } = expectTree(spans, http, ["users.me"]);
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain("5555550199");
    expect(log).toMatchObject({ req: { method: "GET", path: "/api/users/me" }, traceId });
  });

  it("traces each call of a tRPC batch under the one request", async () => {
    const input = encodeURIComponent(JSON.stringify({ 0: null, 1: null }));
    const { spans, http, log } = await traced(`/api/trpc/users.me,rounds.open?batch=1&input=${input}`);
    expect(http.name).toBe("GET /api/trpc/:path");
    const { traceId } = expectTree(spans, http, ["users.me", "rounds.open"]);
    expect(log.traceId).toBe(traceId);
  });

  it("traces a vote sent as a tRPC mutation and over REST, its candidate id out of the spans", async () => {
    for (const via of ["trpc", "rest"] as const) {
      const round = Round.parse(
        (await (await fetch(`${base}/api/prompts/random`, { headers: c.headers })).json()) as unknown,
      );
      const vote = { userId: round.users[0].id, promptId: round.prompt.id };
      const { spans, http, log } =
        via === "trpc"
          ? await traced("/api/trpc/rounds.vote?batch=1", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ 0: vote }),
            })
          : await traced("/api/votes/store", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(vote),
            });
      expect(http.name).toBe(via === "trpc" ? "POST /api/trpc/:path" : "POST /api/votes/store");
      const { traceId, sql } = expectTree(spans, http, ["rounds.vote"]);
      expect(sql.some((s) => String(s.attributes["db.query.text"]).includes("update voter_state"))).toBe(true);
      expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain(vote.userId);
      expect(log.traceId).toBe(traceId);
    }
  });

  it("marks a failed call by its code, a server fault as an error, and names no message", async () => {
    exporter.reset();
    const res = await fetch(`${base}/api/users/me`);
    expect(res.status).toBe(401);
    await expect.poll(() => exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER)).toBe(true);
    const call = exporter.getFinishedSpans().find((s) => s.name === "users.me")!;
    expect(call.attributes["error.type"]).toBe("UNAUTHORIZED");
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("joins the trace a caller names in its traceparent header", async () => {
    const caller = "0af7651916cd43dd8448eb211c80319c";
    const { http } = await traced("/api/users/me", {
      headers: { traceparent: `00-${caller}-b7ad6b7169203331-01` },
    });
    expect(http.spanContext().traceId).toBe(caller);
    expect(parentOf(http)).toBe("b7ad6b7169203331");
  });
});

describe("a statement's summary", () => {
  it("names each operation and table in order, as the database conventions describe", () => {
    expect(querySummary('select "id", "phone" from "users" where "users"."phone" = $1')).toBe("SELECT users");
    expect(querySummary("insert into votes (a, b) select x, y from rounds r join users u on u.id = r.id")).toBe(
      "INSERT votes SELECT rounds users",
    );
    expect(querySummary("update voter_state s set round_open = false where s.user_id = $1")).toBe("UPDATE voter_state");
    expect(
      querySummary(
        "select extract(epoch from now()) from job_runs for update skip locked; insert into t values ($1) on conflict do update set a = 1",
      ),
    ).toBe("SELECT job_runs INSERT t UPDATE");
    expect(querySummary("begin")).toBe("BEGIN");
    expect(querySummary(`select ${"x, ".repeat(200)} from users`.replace(/x, /g, "(select 1 from a), "))).toHaveLength(
      255,
    );
  });
});

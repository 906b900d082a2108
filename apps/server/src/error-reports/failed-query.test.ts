import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentProvider } from "../modules/payments/provider";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";
import { startErrorReports, type ErrorReporter } from "./reporter";

/**
 * A query that fails with a student's words bound to it: Drizzle's message
 * ends in "params: " and every value. Neither the error report nor the
 * server's own error log carries them; both keep the query's text.
 */
const NAME = "Zelda Quixote";
const HANDLE = "@zelda.q.insta";
const PHONE = "+14155550177";
const EMAIL = "zelda.quixote@example.edu";

/** A stand-in for Sentry's ingest: keeps every event posted to it. */
async function fakeIngest() {
  const events: Record<string, unknown>[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = (request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
      const lines = body.split("\n");
      for (let i = 1; i + 1 < lines.length; i += 2) {
        if ((JSON.parse(lines[i]!) as { type?: string }).type === "event") events.push(JSON.parse(lines[i + 1]!));
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { events, port: (server.address() as AddressInfo).port, close: () => server.close() };
}

describe("a failed query's parameters", () => {
  let ingest: Awaited<ReturnType<typeof fakeIngest>>;
  let reporter: ErrorReporter;
  let t: TestApp;
  const logged: string[] = [];
  /** A provider whose write fails in the database, with the student's details bound to the statement. */
  const payments: PaymentProvider = {
    name: "local",
    async createIntent() {
      await t.deps.db.execute(
        sql`insert into no_such_table (name, handle, phone, email) values (${NAME}, ${HANDLE}, ${PHONE}, ${EMAIL})`,
      );
      throw new Error("unreachable");
    },
  };

  beforeAll(async () => {
    ingest = await fakeIngest();
    reporter = (await startErrorReports({
      SENTRY_DSN: `http://0123456789abcdef@127.0.0.1:${ingest.port}/42`,
      NODE_ENV: "test",
    }))!;
    t = await createTestApp({
      payments,
      errorReporter: reporter,
      env: { LOG_LEVEL: "error" },
      logStream: { write: (line) => void logged.push(line) },
    });
  });
  afterAll(async () => {
    await t?.close();
    ingest?.close();
  });

  it("reach neither the error report nor the error log, and the query's text does", async () => {
    const c = await campus(t);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/payments/create-payment-intent",
      headers: c.headers,
      payload: { productId: "unlock-3" },
    });
    expect(res.statusCode).toBe(500);
    for (let waited = 0; ingest.events.length < 1 && waited < 2_000; waited += 100) {
      await reporter.flush(100);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(ingest.events).toHaveLength(1);
    const errorLines = logged.filter((line) => line.includes('"level":50'));
    expect(errorLines.length).toBeGreaterThan(0);

    for (const text of [JSON.stringify(ingest.events[0]), ...errorLines]) {
      for (const secret of [NAME, "Zelda", "Quixote", HANDLE, "zelda.q", PHONE, PHONE.slice(2), EMAIL]) {
        expect(text, secret).not.toContain(secret);
      }
      expect(text).toContain("insert into no_such_table (name, handle, phone, email) values ($1, $2, $3, $4)");
      expect(text).toContain("params: [redacted]");
    }
    // The log keeps what Postgres said, for whoever reads it.
    expect(errorLines.join("\n")).toContain("no_such_table");
    // tRPC's error repeats the message; its cause, Drizzle's, holds the values as a field too.
    const { err } = JSON.parse(errorLines[0]!) as { err: { stack: string; cause: { params: unknown } } };
    expect(err.cause.params).toBe("[redacted]");
    expect(err.stack).toMatch(/params: \[redacted\]\n\s+at /);
  });
});

import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentProvider } from "../modules/payments/provider";
import { createTestApp, type TestApp } from "../test/app";
import { campus } from "../test/voters";
import { startErrorReports, type ErrorReporter } from "./reporter";

/** A stand-in for Sentry's ingest: keeps every event posted to it. */
async function fakeIngest() {
  const events: Record<string, unknown>[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = (request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
      // An envelope: a header line, then (item header, item payload) line pairs.
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

const PHONE = "+14155552671";
const EMAIL = "ada.lovelace@example.edu";
const NAME = "Ada Lovelace";
const CODE = "482913";
const TOKEN = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
const STUDENT_ID = "0b6f1d2e-7c3a-4e5b-9f10-2a3b4c5d6e7f";

/** A payment provider failing with everything a careless message could hold. */
let attempt = 0;
const failingPayments: PaymentProvider = {
  name: "local",
  async createIntent() {
    // Each attempt's own messages: Sentry's dedupe drops an event whose first exception (the innermost
    // cause) has the message and stack of the one before, and after an await both calls' stacks match.
    attempt += 1;
    const cause = new Error(
      `card holder "${NAME}" <${EMAIL}> at ${PHONE}, code ${CODE}, student ${STUDENT_ID} (attempt ${attempt})`,
    );
    throw new Error(
      `provider refused (attempt ${attempt}): Authorization: Bearer ${TOKEN}; Key (phone)=(${PHONE}) exists`,
      { cause },
    );
  },
};

describe("error reports (SENTRY_DSN)", () => {
  let ingest: Awaited<ReturnType<typeof fakeIngest>>;
  let reporter: ErrorReporter;
  let t: TestApp;
  const logged: string[] = [];

  beforeAll(async () => {
    ingest = await fakeIngest();
    reporter = (await startErrorReports({
      SENTRY_DSN: `http://0123456789abcdef@127.0.0.1:${ingest.port}/42`,
      NODE_ENV: "test",
    }))!;
    t = await createTestApp({
      payments: failingPayments,
      errorReporter: reporter,
      env: { LOG_LEVEL: "error" },
      logStream: { write: (line) => void logged.push(line) },
    });
  });
  afterAll(async () => {
    await t?.close();
    ingest?.close();
  });

  it("is off without SENTRY_DSN", async () => {
    expect(await startErrorReports({ SENTRY_DSN: undefined, NODE_ENV: "production" })).toBeUndefined();
  });

  it("sends an unexpected error with its stack and no phone, e-mail, token, code, name or id (REST and tRPC)", async () => {
    const c = await campus(t, { phone: PHONE, firstName: "Ada" });
    const headers = { ...c.headers, "x-student-email": EMAIL };
    const rest = await t.app.inject({
      method: "POST",
      url: `/api/payments/create-payment-intent?phone=${encodeURIComponent(PHONE)}&code=${CODE}`,
      headers,
      payload: { productId: "unlock-3" },
    });
    const trpc = await t.app.inject({
      method: "POST",
      url: "/api/trpc/payments.createPaymentIntent",
      headers,
      payload: { productId: "unlock-3" },
    });
    expect([rest.statusCode, trpc.statusCode]).toEqual([500, 500]);
    // Reports are sent off the request's path: wait for both to arrive.
    for (let waited = 0; ingest.events.length < 2 && waited < 2_000; waited += 100) {
      await reporter.flush(100);
      await new Promise((r) => setTimeout(r, 100));
    }

    expect(ingest.events).toHaveLength(2);
    for (const event of ingest.events) {
      const text = JSON.stringify(event);
      for (const secret of [PHONE, PHONE.slice(2), EMAIL, NAME, "Lovelace", CODE, TOKEN, STUDENT_ID, c.me.id]) {
        expect(text, secret).not.toContain(secret);
      }
      expect(text).not.toContain(c.headers.authorization!.slice("Bearer ".length));
      const { exception, extra } = event as {
        exception: { values: { type: string; value: string; stacktrace: { frames: { filename: string }[] } }[] };
        extra: Record<string, string>;
      };
      // The error and its cause (tRPC wraps them in its own), each with where it was thrown.
      expect(new Set(exception.values.map((v) => v.value))).toEqual(
        new Set([
          expect.stringMatching(
            /^card holder "\[redacted\]" <\[email\]> at \[phone\], code \[number\], student \[id\] \(attempt [12]\)$/,
          ),
          expect.stringMatching(
            /^provider refused \(attempt [12]\): Authorization: Bearer \[token\]; Key \(phone\)=\(\[redacted\]\) exists$/,
          ),
        ]),
      );
      for (const value of exception.values.filter((v) => v.type === "Error")) {
        expect(value.stacktrace.frames.some((f) => f.filename.endsWith("sentry.test.ts"))).toBe(true);
      }
      expect(exception.values.filter((v) => v.type === "Error")).toHaveLength(2);
      expect(extra.procedure).toBe("payments.createPaymentIntent");
      expect(event).not.toHaveProperty("request");
      expect(event).not.toHaveProperty("user");
    }
    // The log still has its own lines for both.
    expect(logged.filter((line) => line.includes('"level":50'))).toHaveLength(2);
  });
});

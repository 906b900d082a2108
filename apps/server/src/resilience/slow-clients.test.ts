import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { ApiErrorBody } from "@quad/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";

/**
 * A client that sends its request slowly (a byte every few seconds) must not
 * hold a connection forever: the headers and the whole request each have a
 * deadline (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS; decision 0014),
 * after which the server answers 408 with the shared error body and closes.
 * Short deadlines here; the defaults are 10 s and 60 s.
 */
const HEADERS_MS = 1_000;
const REQUEST_MS = 2_000;

interface Outcome {
  /** What the server wrote before it closed, "" if nothing. */
  response: string;
  /** When it closed, from the first byte sent; undefined if it was still open when we gave up. */
  closedAfterMs?: number;
}

/** Writes `head`, then `drip` one byte every `everyMs` until the server closes or `giveUpMs` pass. */
function slowRequest(port: number, head: string, drip: string, everyMs: number, giveUpMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, "127.0.0.1");
    let response = "";
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedAfterMs?: number) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ response, closedAfterMs });
    };
    const giveUp = setTimeout(() => finish(undefined), giveUpMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (response += chunk));
    socket.on("close", () => finish(performance.now() - started));
    socket.on("error", () => {});
    socket.on("connect", () => {
      socket.write(head);
      timer = setInterval(() => {
        if (sent < drip.length && !socket.destroyed) socket.write(drip[sent++]!);
      }, everyMs);
    });
  });
}

describe("slow clients", () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS) },
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await t?.close();
  });

  const expect408 = (outcome: Outcome, deadlineMs: number) => {
    expect(outcome.closedAfterMs, "the connection was still open").toBeDefined();
    // Checked once a second: cut off within that of the deadline.
    expect(outcome.closedAfterMs!).toBeGreaterThanOrEqual(deadlineMs - 50);
    expect(outcome.closedAfterMs!).toBeLessThan(deadlineMs + 1_500);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 408 /);
    const body = outcome.response.slice(outcome.response.indexOf("\r\n\r\n") + 4);
    expect(ApiErrorBody.parse(JSON.parse(body))).toMatchObject({ code: "TIMEOUT" });
  };

  it("a body sent a byte at a time is cut off at the request deadline with 408", async () => {
    const body = JSON.stringify({ refreshToken: "x".repeat(200) });
    const head = `POST /api/auth/refresh HTTP/1.1\r\nHost: quad\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // A byte every 300 ms keeps the connection busy, so no idle timeout would catch it.
    expect408(await slowRequest(port, head, body, 300, REQUEST_MS + 4_000), REQUEST_MS);
  });

  it("headers sent a byte at a time are cut off at the headers deadline with 408", async () => {
    const headers = `X-Slow: ${"a".repeat(100)}\r\n\r\n`;
    expect408(
      await slowRequest(port, "GET /api/health HTTP/1.1\r\nHost: quad\r\n", headers, 100, HEADERS_MS + 4_000),
      HEADERS_MS,
    );
  });

  it("a request that arrives within the deadlines, slowly, is answered", async () => {
    const body = JSON.stringify({ refreshToken: "not-a-token" });
    const head = `POST /api/auth/refresh HTTP/1.1\r\nHost: quad\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const outcome = await slowRequest(port, head, body, 1_000 / body.length, 5_000);
    expect(outcome.response).toMatch(/^HTTP\/1\.1 401 /);
  });
});

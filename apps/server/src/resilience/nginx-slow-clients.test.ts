import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { nginxBinary, startNginx } from "../test/nginx";
import { freePort, stopProcess, waitUntilAnswering } from "../test/processes";
import { randomLoopback, send } from "../test/server-process";

/**
 * Slow clients against the shipped proxy (deploy/nginx.conf, as compose
 * mounts it, only its upstreams and port rewritten; deploy/nginx-tls.conf
 * sets the same limits): a header or a body trickled a byte every few
 * seconds is cut off, and one address holding thousands of slow connections
 * takes nothing from other clients (decision 0033). The app behind it has a
 * 3 s request deadline here (HTTP_REQUEST_TIMEOUT_MS, 60 s by default).
 */
const NGINX_CONF = fileURLToPath(new URL("../../../../deploy/nginx.conf", import.meta.url));
const NGINX_TLS_CONF = fileURLToPath(new URL("../../../../deploy/nginx-tls.conf", import.meta.url));
const REQUEST_MS = 3_000;
const SLOW_CONNECTIONS = 2_100;
// CI installs nginx (.ci/run): there a missing one must fail, not skip.
if (!nginxBinary && process.env.CI) throw new Error("nginx is missing: .ci/run installs nginx-light for this test");

/** Opens a connection from `from`, writes `head`, then one byte of `drip` every `everyMs`; resolves when it closes. */
function trickle(port: number, from: string, head: string, drip: string, everyMs: number) {
  const started = performance.now();
  const socket = connect({ port, host: "127.0.0.1", localAddress: from });
  let response = "";
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => (response += chunk));
  socket.on("error", () => {});
  const connected = new Promise<void>((resolve) =>
    socket.on("connect", () => {
      socket.write(head);
      if (drip)
        timer = setInterval(() => {
          if (sent < drip.length && !socket.destroyed) socket.write(drip[sent++]!);
        }, everyMs);
      resolve();
    }),
  );
  const closed = new Promise<{ afterMs: number; response: string }>((resolve) =>
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ afterMs: performance.now() - started, response });
    }),
  );
  return {
    socket,
    connected,
    closed,
    /** What it was answered so far. */
    response: () => response,
    stop: () => (clearInterval(timer), socket.destroy()),
  };
}

/** Resolves with how it closed, or undefined if it was still open after `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms))]);

describe.skipIf(!nginxBinary)(
  nginxBinary ? "slow clients through nginx (deploy/nginx.conf)" : "slow clients through nginx (skipped: no nginx)",
  () => {
    let t: TestApp;
    let nginx: ChildProcess | undefined;
    let workDir: string;
    let port: number;
    const open: Socket[] = [];

    beforeAll(async () => {
      workDir = await mkdtemp(path.join(tmpdir(), "quad-nginx-slow-"));
      t = await createTestApp({
        env: { TRUST_PROXY: "true", HTTP_HEADERS_TIMEOUT_MS: "1000", HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS) },
      });
      const appPort = await freePort();
      await t.app.listen({ port: appPort, host: "127.0.0.1" });
      port = await freePort();
      nginx = await startNginx(
        NGINX_CONF,
        [
          ["server app1:3000", `server 127.0.0.1:${appPort}`],
          ["server app2:3000", `server 127.0.0.1:${appPort}`],
          ["listen 80;", `listen 127.0.0.1:${port};`],
        ],
        workDir,
      );
      await waitUntilAnswering(`http://127.0.0.1:${port}/api/health/live`, nginx);
    }, 120_000);

    afterAll(async () => {
      for (const socket of open) socket.destroy();
      await stopProcess(nginx);
      await t?.close();
      if (workDir) await rm(workDir, { recursive: true, force: true });
    });

    it("cuts off a header trickled a byte every 2 s within 10 s, without an answer (client_header_timeout)", async () => {
      const slow = trickle(port, randomLoopback(), "GET /api/health/live HTTP/1.1\r\n", "X-Slow: aaaaaaaaaaaa", 2_000);
      const closed = await within(slow.closed, 14_000);
      slow.stop();
      console.log(
        `a trickled header: ${closed ? `closed after ${Math.round(closed.afterMs)} ms` : "still open at 14 s"}`,
      );
      expect(closed, "still open at 14 s").toBeDefined();
      expect(closed!.afterMs).toBeLessThan(12_000);
      // nginx closes it without an answer (its access log says 408): no status line ever reaches the client.
      expect(closed!.response).toBe("");
    }, 30_000);

    it("cuts off a body trickled a byte every 2 s at the app's request deadline, with 408", async () => {
      const head =
        "POST /api/auth/refresh HTTP/1.1\r\nHost: quad\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n";
      const slow = trickle(port, randomLoopback(), head, "x".repeat(200), 2_000);
      const closed = await within(slow.closed, 14_000);
      slow.stop();
      console.log(
        `a trickled body: ${closed ? `closed after ${Math.round(closed.afterMs)} ms` : "still open at 14 s"}`,
      );
      expect(closed, "still open at 14 s").toBeDefined();
      expect(closed!.afterMs).toBeLessThan(REQUEST_MS + 4_000);
      expect(closed!.response).toMatch(/^HTTP\/1\.1 408 /);
    }, 30_000);

    it(`keeps answering others while one address holds ${SLOW_CONNECTIONS} slow connections, and refuses it past its share`, async () => {
      const attacker = randomLoopback();
      const slowHeaders = Array.from({ length: SLOW_CONNECTIONS }, () =>
        trickle(port, attacker, "GET /api/health/live HTTP/1.1\r\nHost: quad\r\n", "", 0),
      );
      open.push(...slowHeaders.map((s) => s.socket));
      await Promise.all(slowHeaders.map((s) => within(s.connected, 5_000)));
      // Requests whose headers are in and whose bodies trickle: each holds a request in progress.
      const head =
        "POST /api/auth/refresh HTTP/1.1\r\nHost: quad\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n";
      const slowBodies = Array.from({ length: 100 }, () => trickle(port, attacker, head, "x".repeat(200), 1_000));
      open.push(...slowBodies.map((s) => s.socket));
      await new Promise((r) => setTimeout(r, 1_000));

      const others = await Promise.all(
        Array.from({ length: 20 }, () =>
          send(`http://127.0.0.1:${port}`, { path: "/api/health/live", timeoutMs: 3_000 }),
        ),
      );
      const refused = slowBodies.filter((s) => s.response().startsWith("HTTP/1.1 429 ")).length;
      for (const s of [...slowHeaders, ...slowBodies]) s.stop();
      const slowest = Math.max(...others.map((a) => a.ms));
      console.log(
        `${SLOW_CONNECTIONS} slow headers and 100 slow bodies from one address: others got ${others.map((a) => a.status).join(",")}, ` +
          `the slowest in ${Math.round(slowest)} ms; ${refused} of its slow bodies refused with 429`,
      );
      for (const answer of others) expect(answer.status).toBe(200);
      expect(slowest).toBeLessThan(2_000);
      expect(refused).toBeGreaterThanOrEqual(30);
    }, 60_000);
  },
);

describe("deploy/nginx-tls.conf", () => {
  it("sets the limits deploy/nginx.conf is tested with", async () => {
    const LIMITS =
      /^\s*(worker_rlimit_nofile|events|client_header_timeout|client_body_timeout|proxy_request_buffering|keepalive_timeout|send_timeout|reset_timedout_connection|limit_conn\w*|geo|map|default|\d+\.\d+\.\d+\.\d+\/\d+|[01] )\b.*$/gm;
    const limits = async (file: string) => (await readFile(file, "utf8")).match(LIMITS)?.map((line) => line.trim());
    const plain = await limits(NGINX_CONF);
    expect(plain?.length).toBeGreaterThan(15);
    expect(await limits(NGINX_TLS_CONF)).toEqual(plain);
  });
});

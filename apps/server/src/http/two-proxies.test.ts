import { execFileSync, spawnSync, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { nginxBinary, startNginx } from "../test/nginx";
import { freePort, stopProcess, waitUntilAnswering } from "../test/processes";
import { randomLoopback } from "../test/server-process";

/**
 * The documented two proxies: deploy/nginx-tls.conf on the host in front of
 * deploy/nginx.conf (compose's), in front of the app with TRUST_PROXY. Each
 * client keeps its own address all the way to the app, so a per-address
 * limit (the visitors' preview, 60 a minute) refuses the client that used it
 * up and not its neighbour; and a client's own X-Forwarded-For moves nothing.
 */
const NGINX_CONF = fileURLToPath(new URL("../../../../deploy/nginx.conf", import.meta.url));
const TLS_CONF = fileURLToPath(new URL("../../../../deploy/nginx-tls.conf", import.meta.url));
const opensslBinary = spawnSync("openssl", ["version"]).status === 0;
// CI installs nginx (.ci/run): there a missing one must fail, not skip.
if (!nginxBinary && process.env.CI) throw new Error("nginx is missing: .ci/run installs nginx-light for this test");

describe.skipIf(!nginxBinary || !opensslBinary)(
  nginxBinary && opensslBinary
    ? "client addresses through deploy/nginx-tls.conf and deploy/nginx.conf"
    : "client addresses through two proxies (skipped: needs nginx and openssl)",
  () => {
    let t: TestApp;
    let inner: ChildProcess | undefined;
    let outer: ChildProcess | undefined;
    let workDir: string;
    let ca: string;
    let httpsPort: number;

    /** A preview through both proxies, from `from`, over https as students reach it. */
    const preview = (from: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: "127.0.0.1",
            port: httpsPort,
            path: "/api/prompts/unauthenticated?gender=female",
            servername: "quad.example.edu",
            headers: { host: "quad.example.edu", ...headers },
            localAddress: from,
            ca,
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end();
      });

    beforeAll(async () => {
      workDir = await mkdtemp(path.join(tmpdir(), "quad-two-proxies-"));
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=quad.example.edu",
          "-addext",
          "subjectAltName=DNS:quad.example.edu",
          "-keyout",
          path.join(workDir, "privkey.pem"),
          "-out",
          path.join(workDir, "fullchain.pem"),
        ],
        { stdio: "ignore" },
      );
      ca = await readFile(path.join(workDir, "fullchain.pem"), "utf8");
      // The app trusts the one proxy that connects to it, by its address.
      t = await createTestApp({ env: { PUBLIC_URL: "https://quad.example.edu", TRUST_PROXY: "127.0.0.1" } });
      const appPort = await freePort();
      await t.app.listen({ port: appPort, host: "127.0.0.1" });

      const innerPort = await freePort();
      const innerDir = path.join(workDir, "inner");
      const outerDir = path.join(workDir, "outer");
      await Promise.all([mkdir(innerDir), mkdir(outerDir)]);
      inner = await startNginx(
        NGINX_CONF,
        [
          ["server app1:3000", `server 127.0.0.1:${appPort}`],
          ["server app2:3000", `server 127.0.0.1:${appPort}`],
          ["listen 80;", `listen 127.0.0.1:${innerPort};`],
        ],
        innerDir,
      );
      await waitUntilAnswering(`http://127.0.0.1:${innerPort}/api/health/live`, inner, 10_000);
      const httpPort = await freePort();
      httpsPort = await freePort();
      // The host's TLS nginx in front of compose's proxy, published on 127.0.0.1:3000 as the guide says.
      outer = await startNginx(
        TLS_CONF,
        [
          ["server 127.0.0.1:3000;", `server 127.0.0.1:${innerPort};`],
          ["listen 80;", `listen 127.0.0.1:${httpPort};`],
          ["listen 443 ssl http2;", `listen 127.0.0.1:${httpsPort} ssl http2;`],
          ["/etc/letsencrypt/live/quad.example.edu/", `${workDir}/`],
        ],
        outerDir,
      );
      for (let i = 0; ; i++) {
        try {
          await preview(randomLoopback());
          break;
        } catch (error) {
          if (i > 100) throw error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }, 60_000);

    afterAll(async () => {
      await stopProcess(outer);
      await stopProcess(inner);
      await t?.close();
      if (workDir) await rm(workDir, { recursive: true, force: true });
    });

    it("a client that used up its previews is refused, and one from the next address is not", async () => {
      const [first, second] = [randomLoopback(), randomLoopback()];
      const statuses: number[] = [];
      // Bounded: the limit is 60 a minute.
      for (let i = 0; i < 80 && !statuses.includes(429); i++) statuses.push(await preview(first));
      // Its own X-Forwarded-For does not make it someone else.
      const forged = await preview(first, { "x-forwarded-for": second });
      const neighbour = await preview(second);
      console.log(
        `first address: ${statuses.filter((s) => s === 200).length} × 200 then ${statuses.at(-1)}; forged header ${forged}; second address ${neighbour}`,
      );
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(50);
      expect(forged).toBe(429);
      expect(neighbour).toBe(200);
    });
  },
);

import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TLSSocket } from "node:tls";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app";
import { freePort, stopProcess } from "../test/processes";

const TLS_CONF = fileURLToPath(new URL("../../../../deploy/nginx-tls.conf", import.meta.url));
const nginxBinary = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => spawnSync(p, ["-v"]).status === 0);
const opensslBinary = spawnSync("openssl", ["version"]).status === 0;
// CI installs nginx (.ci/run): there a missing one must fail, not skip.
if (!nginxBinary && process.env.CI) throw new Error("nginx is missing: .ci/run installs nginx-light for this test");

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  protocol?: string | null;
}

function get(url: string, ca?: string): Promise<Answer> {
  const { hostname, port, pathname, search } = new URL(url);
  const send = url.startsWith("https:") ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      // The certificate names quad.example.edu: the name is sent, the connection goes to loopback.
      { host: "127.0.0.1", port, path: pathname + search, servername: hostname, headers: { host: hostname }, ca },
      (res) => {
        const socket = res.socket as TLSSocket | null;
        const protocol = typeof socket?.getProtocol === "function" ? socket.getProtocol() : undefined;
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, protocol }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe.skipIf(!nginxBinary || !opensslBinary)(
  nginxBinary && opensslBinary
    ? "TLS in front of the app (deploy/nginx-tls.conf)"
    : "TLS in front of the app (skipped: needs nginx and openssl; CI has both)",
  () => {
    let t: TestApp;
    let nginx: ChildProcess | undefined;
    let workDir: string;
    let ca: string;
    let httpPort: number;
    let httpsPort: number;

    beforeAll(async () => {
      workDir = await mkdtemp(path.join(tmpdir(), "quad-tls-"));
      // A self-signed certificate for the config's name, standing in for Let's Encrypt's.
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

      t = await createTestApp({ env: { PUBLIC_URL: "https://quad.example.edu", TRUST_PROXY: "true" } });
      const appPort = await freePort();
      await t.app.listen({ port: appPort, host: "127.0.0.1" });

      // The repository's config as an operator installs it, pointed at this app, these files and free ports.
      [httpPort, httpsPort] = [await freePort(), await freePort()];
      const rewrites: [string, string][] = [
        ["server 127.0.0.1:3000;", `server 127.0.0.1:${appPort};`],
        ["listen 80;", `listen 127.0.0.1:${httpPort};`],
        ["listen 443 ssl http2;", `listen 127.0.0.1:${httpsPort} ssl http2;`],
        ["/etc/letsencrypt/live/quad.example.edu/", `${workDir}/`],
        ["/etc/letsencrypt/live/quad.example.edu/", `${workDir}/`],
      ];
      let conf = await readFile(TLS_CONF, "utf8");
      for (const [from, to] of rewrites) {
        if (!conf.includes(from)) throw new Error(`deploy/nginx-tls.conf no longer has "${from}": update this test`);
        conf = conf.replace(from, to);
      }
      const confFile = path.join(workDir, "nginx.conf");
      await writeFile(confFile, conf);
      nginx = spawn(
        nginxBinary!,
        [
          "-p",
          workDir,
          "-c",
          confFile,
          "-e",
          path.join(workDir, "error.log"),
          "-g",
          `daemon off; pid ${workDir}/nginx.pid;`,
        ],
        { stdio: "ignore" },
      );
      for (let i = 0; ; i++) {
        try {
          await get(`https://quad.example.edu:${httpsPort}/api/health/live`, ca);
          break;
        } catch (error) {
          if (i > 100) throw error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }, 60_000);

    afterAll(async () => {
      await stopProcess(nginx);
      await t?.close();
      if (workDir) await rm(workDir, { recursive: true, force: true });
    });

    it("sends plain http to https, path kept", async () => {
      const answer = await get(`http://quad.example.edu:${httpPort}/api/health?x=1`);
      expect(answer.status).toBe(301);
      expect(answer.headers.location).toBe("https://quad.example.edu/api/health?x=1");
    });

    it("serves the app over TLS 1.2 or 1.3 with the app's own headers, HSTS included", async () => {
      const answer = await get(`https://quad.example.edu:${httpsPort}/api/health`, ca);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ status: "ok" });
      expect(["TLSv1.2", "TLSv1.3"]).toContain(answer.protocol);
      expect(answer.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
      expect(answer.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    });

    it("refuses TLS 1.1", async () => {
      const refused = new Promise<string>((resolve) => {
        const req = httpsRequest(
          {
            host: "127.0.0.1",
            port: httpsPort,
            servername: "quad.example.edu",
            ca,
            minVersion: "TLSv1",
            maxVersion: "TLSv1.1",
          },
          () => resolve("answered"),
        );
        req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        req.end();
      });
      expect(await refused).not.toBe("answered");
    });
  },
);

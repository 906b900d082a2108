import { createDecipheriv, createECDH, hkdfSync, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { importSPKI, jwtVerify } from "jose";
import webPush from "web-push";
import { createWebPushSender, type PushSender, type WebPushSenderOptions } from "../modules/push/sender";

/** One request the fake push service received. */
export interface PushRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A local push service: an HTTPS server (self-signed, trusted only through
 * `agent`) that takes pushes as a browser vendor's would and records them.
 * `answer` decides each response's status (201 Created, as push services do).
 */
export interface FakePushService {
  requests: PushRequest[];
  answer: (request: PushRequest) => number | { status: number; headers: Record<string, string> };
  /** An endpoint on this service, like the URL a browser's PushManager returns. */
  endpoint(id: string): string;
  origin: string;
  /** The certificate, for a browser or client that should trust the fake. */
  certificate: string;
  agent: Agent;
  close(): Promise<void>;
}

/** A host name the fake's certificate also holds: a test's resolver may answer the fake's address for it. */
export const FAKE_PUSH_HOST = "push.quad.test";

export async function startFakePushService(): Promise<FakePushService> {
  const dir = mkdtempSync(path.join(tmpdir(), "quad-push-tls-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
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
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      // The name lets a test resolve a push service's host name to this service itself.
      `subjectAltName=IP:127.0.0.1,DNS:${FAKE_PUSH_HOST}`,
    ],
    { stdio: "ignore" },
  );
  const key = readFileSync(keyFile, "utf8");
  const certificate = readFileSync(certFile, "utf8");
  rmSync(dir, { recursive: true, force: true });

  const service: Omit<FakePushService, "endpoint" | "origin" | "close"> = {
    requests: [],
    answer: () => 201,
    certificate,
    agent: new Agent({ ca: certificate, keepAlive: false }),
  };
  const server: Server = createServer({ key, cert: certificate }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks) };
      service.requests.push(request);
      const answer = service.answer(request);
      const { status, headers } = typeof answer === "number" ? { status: answer, headers: {} } : answer;
      res.writeHead(status, { "access-control-allow-origin": "*", ...headers }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(service, {
    origin,
    endpoint: (id: string) => `${origin}/push/${id}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/**
 * A test VAPID key pair and a sender through the real web-push library to the
 * fake, as development's: local addresses allowed unless `options` says otherwise.
 */
export function pushSenderFor(
  service: FakePushService,
  subject = "mailto:push@quad.example",
  options: Partial<WebPushSenderOptions> = {},
): PushSender & { privateKey: string } {
  const keys = webPush.generateVAPIDKeys();
  const sender = createWebPushSender({
    ...keys,
    subject,
    ca: service.certificate,
    allowPrivateAddresses: true,
    ...options,
  });
  return { ...sender, privateKey: keys.privateKey };
}

/** What a browser holds for one subscription: its ECDH key pair and auth secret (RFC 8291). */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  decrypt(body: Buffer): string;
}

export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH("prime256v1");
  const publicKey = ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    endpoint,
    keys: { p256dh: publicKey.toString("base64url"), auth: auth.toString("base64url") },
    decrypt: (body) => decryptAes128gcm(body, ecdh.getPrivateKey(), publicKey, auth),
  };
}

/** RFC 8291 §3.4 and RFC 8188: one record, as web-push sends it. */
function decryptAes128gcm(body: Buffer, privateKey: Buffer, publicKey: Buffer, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublicKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  const shared = ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), publicKey, senderPublicKey]);
  const ikm = Buffer.from(hkdfSync("sha256", shared, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  const end = padded.lastIndexOf(2);
  return padded.subarray(0, end).toString("utf8");
}

/** Checks a push request's VAPID Authorization (RFC 8292) and answers its JWT claims. */
export async function verifyVapid(request: PushRequest, publicKey: string) {
  const header = String(request.headers.authorization ?? "");
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  if (!match) throw new Error(`not a VAPID authorization: ${header}`);
  const [, token, key] = match;
  if (key !== publicKey) throw new Error("VAPID k is not the sender's public key");
  const raw = Buffer.from(publicKey, "base64url");
  // The raw P-256 point wrapped in its SubjectPublicKeyInfo, to import it as a verification key.
  const spki = Buffer.concat([Buffer.from("3059301306072a8648ce3d020106082a8648ce3d030107034200", "hex"), raw]);
  const pem = `-----BEGIN PUBLIC KEY-----\n${spki.toString("base64")}\n-----END PUBLIC KEY-----`;
  const { payload, protectedHeader } = await jwtVerify(token!, await importSPKI(pem, "ES256"));
  return { payload, protectedHeader };
}

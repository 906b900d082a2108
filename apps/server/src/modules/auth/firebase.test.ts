import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

type KeyLike = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
import { beforeAll, describe, expect, it } from "vitest";
import { createFirebaseVerifier, FIREBASE_MESSAGES, type FirebaseTokenVerifier } from "./firebase";

// A test key set standing in for Google's: tokens are signed exactly as
// Firebase signs them, only with our own key.
const projectId = "quad-test";
const now = new Date("2026-03-01T12:00:00Z");
const seconds = Math.floor(now.getTime() / 1000);
let privateKey: KeyLike;
let otherKey: KeyLike;
let verify: FirebaseTokenVerifier;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  privateKey = pair.privateKey;
  otherKey = (await generateKeyPair("RS256")).privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: "key-1", alg: "RS256", use: "sig" };
  verify = createFirebaseVerifier({ projectId, now: () => now, keySet: createLocalJWKSet({ keys: [jwk] }) });
});

interface TokenOptions {
  claims?: Record<string, unknown>;
  key?: KeyLike;
  kid?: string;
  iss?: string;
  aud?: string;
  iat?: number;
  exp?: number;
}

function firebaseToken(opts: TokenOptions = {}) {
  return new SignJWT({
    phone_number: "+12025550123",
    auth_time: seconds - 60,
    firebase: { sign_in_provider: "phone" },
    ...opts.claims,
  })
    .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? "key-1" })
    .setIssuer(opts.iss ?? `https://securetoken.google.com/${projectId}`)
    .setAudience(opts.aud ?? projectId)
    .setSubject("firebase-uid-1")
    .setIssuedAt(opts.iat ?? seconds - 60)
    .setExpirationTime(opts.exp ?? seconds + 3000)
    .sign(opts.key ?? privateKey);
}

const rejects = async (token: Promise<string>, message: string = FIREBASE_MESSAGES.invalid) => {
  await expect(verify(await token)).rejects.toMatchObject({ code: "UNAUTHORIZED", message });
};

describe("Firebase ID token verification", () => {
  it("accepts a valid token and answers its phone", async () => {
    expect(await verify(await firebaseToken())).toEqual({ phone: "+12025550123" });
  });

  it("refuses a token signed by another key", () => rejects(firebaseToken({ key: otherKey })));
  it("refuses an unknown key id", () => rejects(firebaseToken({ kid: "key-2" })));
  it("refuses another project's audience", () => rejects(firebaseToken({ aud: "someone-else" })));
  it("refuses another issuer", () => rejects(firebaseToken({ iss: "https://securetoken.google.com/someone-else" })));
  it("refuses an expired token", () => rejects(firebaseToken({ iat: seconds - 7200, exp: seconds - 3600 })));
  it("refuses a token issued in the future", () => rejects(firebaseToken({ iat: seconds + 600 })));
  it("refuses an authentication time in the future", () =>
    rejects(firebaseToken({ claims: { auth_time: seconds + 600 } })));
  it("refuses a token without auth_time", () => rejects(firebaseToken({ claims: { auth_time: undefined } })));
  it("refuses a token without a US phone number", async () => {
    await rejects(firebaseToken({ claims: { phone_number: undefined } }), FIREBASE_MESSAGES.noPhone);
    await rejects(firebaseToken({ claims: { phone_number: "+447700900123" } }), FIREBASE_MESSAGES.noPhone);
  });
  it("refuses garbage", async () => {
    await expect(verify("not.a.token")).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

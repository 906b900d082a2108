import { SIGN_IN_MESSAGES } from "@quad/contracts";
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { bearer } from "../../test/auth";
import { createFirebaseVerifier } from "./firebase";

const projectId = "quad-test";
let t: TestApp;
let sign: (phone: string) => Promise<string>;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const keySet = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256" }] });
  sign = (phone) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ phone_number: phone, auth_time: now - 5 })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(`https://securetoken.google.com/${projectId}`)
      .setAudience(projectId)
      .setSubject("uid-1")
      .setIssuedAt(now - 5)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
  };
  t = await createTestApp({
    env: { AUTH_PROVIDER: "firebase", FIREBASE_PROJECT_ID: projectId, FIREBASE_API_KEY: "public-api-key" },
    firebaseVerifier: createFirebaseVerifier({ projectId, now: () => new Date(), keySet }),
  });
});
afterAll(() => t?.close());

describe("the firebase auth provider", () => {
  it("trades a verified Firebase ID token for our own session", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/firebase",
      payload: { idToken: await sign("+12025550777"), consents: { sms: true, terms: true } },
    });
    expect(res.statusCode).toBe(200);
    const me = await t.app.inject({ method: "GET", url: "/api/users/me", headers: bearer(res.json()) });
    expect(me.json()).toEqual({ message: "No such user exists!", code: "NOT_FOUND" });
  });

  it("answers a bad token with 401", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/auth/firebase", payload: { idToken: "a.b.c" } });
    expect(res.statusCode).toBe(401);
  });

  it("turns the local code flow off", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/auth/send-code", payload: { phone: "+12025550777" } });
    expect(res.statusCode).toBe(404);
  });

  it("tells the client which provider to use, with the public Firebase settings", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/config" });
    expect(res.json()).toEqual({
      authProvider: "firebase",
      firebase: { apiKey: "public-api-key", authDomain: `${projectId}.firebaseapp.com`, projectId },
      paymentProvider: "local",
      stripePublishableKey: null,
      vapidPublicKey: null,
    });
  });
});

describe("the local provider", () => {
  it("refuses Firebase tokens and says so in the client config", async () => {
    const local = await createTestApp();
    try {
      const res = await local.app.inject({ method: "POST", url: "/api/auth/firebase", payload: { idToken: "x" } });
      expect(res.statusCode).toBe(404);
      const config = await local.app.inject({ method: "GET", url: "/api/config" });
      expect(config.json()).toMatchObject({ authProvider: "local", firebase: null });
    } finally {
      await local.close();
    }
  });
});

describe("tRPC batches", () => {
  it("count every call against the rate limits", async () => {
    const phones = Array.from({ length: 10 }, (_, i) => `+1202777${String(i).padStart(4, "0")}`);
    // A budget of 20 texts an hour: two batches of 10 spend it, the third call is refused.
    const local = await createTestApp({ env: { SMS_HOURLY_BUDGET: "20" } });
    try {
      for (const batch of [0, 1]) {
        const input: Record<string, unknown> = {};
        phones.forEach((phone, i) => (input[i] = { phone: phone.replace(/7(\d{4})$/, `${batch}$1`) }));
        const res = await local.app.inject({
          method: "POST",
          url: `/api/trpc/${phones.map(() => "auth.sendCode").join(",")}?batch=1`,
          payload: input,
          remoteAddress: "10.9.9.9",
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().every((r: { result?: unknown }) => r.result)).toBe(true);
      }
      const refused = await local.app.inject({
        method: "POST",
        url: "/api/auth/send-code",
        payload: { phone: "+12028889999" },
        remoteAddress: "10.9.9.9",
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(SIGN_IN_MESSAGES.smsBudgetSpent);
    } finally {
      await local.close();
    }
  });
});

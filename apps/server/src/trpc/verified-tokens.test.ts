import { describe, expect, it } from "vitest";
import { signAccessToken, ACCESS_TOKEN_TTL_MS } from "../modules/auth/tokens";
import { createTokenVerifier } from "./verified-tokens";

const secret = "test-secret-test-secret-test-secret-0123";
const claims = { phone: "+15555550100", sessionId: "session-1", familyId: "8d4a3f9e-2b1c-4e5f-9a7b-0c1d2e3f4a5b" };
const noneRevoked = { isRevoked: () => false };

describe("createTokenVerifier", () => {
  it("answers what verifying answers, also from memory, until the token expires", async () => {
    const verify = createTokenVerifier(secret, noneRevoked);
    const issued = new Date("2026-05-01T12:00:00Z");
    const { token, expiresAt } = await signAccessToken(secret, claims, issued);
    // With the token's expiry, which a live stream ends at.
    const verified = { ...claims, expiresAtMs: expiresAt.getTime() };
    expect(await verify(token, issued)).toEqual(verified);
    expect(await verify(token, new Date(issued.getTime() + ACCESS_TOKEN_TTL_MS - 1000))).toEqual(verified);
    expect(await verify(token, expiresAt)).toBeNull();
    expect(await verify(token, new Date(expiresAt.getTime() + 1))).toBeNull();
  });

  it("refuses forged, tampered and foreign tokens every time", async () => {
    const verify = createTokenVerifier(secret, noneRevoked);
    const now = new Date();
    const { token, expiresAt } = await signAccessToken(secret, claims, now);
    const other = await signAccessToken("another-secret-another-secret-0123456789", claims, now);
    const [header, payload, signature] = token.split(".");
    const tampered = `${header}.${Buffer.from(JSON.stringify({ sub: "+15555550199", sid: "x", exp: 9e9 })).toString("base64url")}.${signature}`;
    for (let i = 0; i < 2; i++) {
      expect(await verify(other.token, now)).toBeNull();
      expect(await verify(tampered, now)).toBeNull();
      expect(await verify(`${header}.${payload}.`, now)).toBeNull();
      expect(await verify("not-a-token", now)).toBeNull();
    }
    expect(await verify(token, now)).toEqual({ ...claims, expiresAtMs: expiresAt.getTime() });
  });

  it("refuses a remembered token once its family is revoked, and every later time", async () => {
    const revoked = new Set<string>();
    const verify = createTokenVerifier(secret, { isRevoked: (family) => revoked.has(family) });
    const now = new Date();
    const { token, expiresAt } = await signAccessToken(secret, claims, now);
    const other = await signAccessToken(secret, { ...claims, familyId: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0" }, now);
    expect(await verify(token, now)).toEqual({ ...claims, expiresAtMs: expiresAt.getTime() });
    revoked.add(claims.familyId);
    expect(await verify(token, now)).toBeNull();
    expect(await verify(token, now)).toBeNull();
    expect(await verify(other.token, now)).toMatchObject({ familyId: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0" });
  });
});

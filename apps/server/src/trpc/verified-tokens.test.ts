import { describe, expect, it } from "vitest";
import { signAccessToken, ACCESS_TOKEN_TTL_MS } from "../modules/auth/tokens";
import { createTokenVerifier } from "./verified-tokens";

const secret = "test-secret-test-secret-test-secret-0123";
const claims = { phone: "+15555550100", sessionId: "session-1" };

describe("createTokenVerifier", () => {
  it("answers what verifying answers, also from memory, until the token expires", async () => {
    const verify = createTokenVerifier(secret);
    const issued = new Date("2026-05-01T12:00:00Z");
    const { token, expiresAt } = await signAccessToken(secret, claims, issued);
    expect(await verify(token, issued)).toEqual(claims);
    expect(await verify(token, new Date(issued.getTime() + ACCESS_TOKEN_TTL_MS - 1000))).toEqual(claims);
    expect(await verify(token, expiresAt)).toBeNull();
    expect(await verify(token, new Date(expiresAt.getTime() + 1))).toBeNull();
  });

  it("refuses forged, tampered and foreign tokens every time", async () => {
    const verify = createTokenVerifier(secret);
    const now = new Date();
    const { token } = await signAccessToken(secret, claims, now);
    const other = await signAccessToken("another-secret-another-secret-0123456789", claims, now);
    const [header, payload, signature] = token.split(".");
    const tampered = `${header}.${Buffer.from(JSON.stringify({ sub: "+15555550199", sid: "x", exp: 9e9 })).toString("base64url")}.${signature}`;
    for (let i = 0; i < 2; i++) {
      expect(await verify(other.token, now)).toBeNull();
      expect(await verify(tampered, now)).toBeNull();
      expect(await verify(`${header}.${payload}.`, now)).toBeNull();
      expect(await verify("not-a-token", now)).toBeNull();
    }
    expect(await verify(token, now)).toEqual(claims);
  });
});

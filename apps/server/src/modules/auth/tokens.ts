import { webcrypto } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

/** Access tokens live briefly; the refresh token keeps a person signed in. */
export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const ISSUER = "quad";
const AUDIENCE = "quad-api";

export interface AccessClaims {
  phone: string;
  /** The refresh-token row the token was issued with. */
  sessionId: string;
  /**
   * The session family (`fam`), which sign-out revokes as a whole. Absent
   * only from tokens signed before families were named in them: those
   * expire within ACCESS_TOKEN_TTL_MS of the deploy.
   */
  familyId?: string;
  /** When the token expires (ms), as the verifier read it. */
  expiresAtMs?: number;
}

/**
 * The HMAC key, imported into WebCrypto once per secret: given raw bytes,
 * jose imports the key again on every sign and verify (about 40% of a
 * verification's cost here).
 */
const keys = new Map<string, Promise<webcrypto.CryptoKey>>();
function keyOf(secret: string): Promise<webcrypto.CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    keys.set(secret, key);
  }
  return key;
}

export async function signAccessToken(
  secret: string,
  claims: AccessClaims,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = new Date(issuedAt * 1000 + ACCESS_TOKEN_TTL_MS);
  const token = await new SignJWT({ sid: claims.sessionId, fam: claims.familyId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.phone)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await keyOf(secret));
  return { token, expiresAt };
}

/** The claims of a valid token, or null for anything else (expired, forged, malformed). */
export async function verifyAccessToken(secret: string, token: string, now: Date): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
    });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
    if (payload.fam !== undefined && typeof payload.fam !== "string") return null;
    return { phone: payload.sub, sessionId: payload.sid, familyId: payload.fam };
  } catch {
    return null;
  }
}

/** "Bearer <token>" → the token; anything else → null. */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match ? match[1]! : null;
}

import type { SessionRevocations } from "../modules/auth/revocations";
import { verifyAccessToken, type AccessClaims } from "../modules/auth/tokens";

/** Enough for every student active within a token's 15 minutes on one process; older entries go first. */
const MAX_ENTRIES = 50_000;

/**
 * verifyAccessToken, remembered per token until the token expires. Access
 * tokens are stateless (nothing is looked up to accept one), so a token that
 * verified once is valid, with the same claims, until its `exp`: the cache
 * answers exactly what verifying again would, without jose's HMAC through
 * WebCrypto (about 0.1–0.3 ms a request here, the largest cost of a hot
 * request outside the database). Only tokens that verified are kept, so
 * forged ones cannot fill it; the clock is the app's, so tests that move
 * time still see tokens expire.
 *
 * What a signature cannot say is whether the session was signed out since:
 * every call, cached or not, asks `revocations` about the token's family
 * (one Map lookup), and a revoked token leaves the cache.
 */
export function createTokenVerifier(
  secret: string,
  revocations: Pick<SessionRevocations, "isRevoked">,
): (token: string, now: Date) => Promise<AccessClaims | null> {
  const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();
  const revoked = (claims: AccessClaims) => claims.familyId !== undefined && revocations.isRevoked(claims.familyId);
  return async (token, now) => {
    const hit = verified.get(token);
    if (hit && now.getTime() < hit.expiresAtMs && !revoked(hit.claims)) return hit.claims;
    if (hit) verified.delete(token);
    const claims = await verifyAccessToken(secret, token, now);
    if (claims && revoked(claims)) return null;
    const expiresAtMs = claims ? expiryOf(token) : null;
    if (claims && expiresAtMs !== null) {
      // Once per token: a stream ends when its token does (modules/live).
      const withExpiry = { ...claims, expiresAtMs };
      if (verified.size >= MAX_ENTRIES) verified.delete(verified.keys().next().value!);
      verified.set(token, { claims: withExpiry, expiresAtMs });
      return withExpiry;
    }
    return claims;
  };
}

/** `exp` of a token that just verified (so its payload is the signer's), in ms. */
function expiryOf(token: string): number | null {
  try {
    const { exp } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as { exp?: unknown };
    return typeof exp === "number" ? exp * 1000 : null;
  } catch {
    return null;
  }
}

import { E164PhoneSchema } from "@quad/contracts";
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import { AppError } from "../../errors";

/** Google publishes the keys that sign Firebase ID tokens here (as a JWK set). */
export const FIREBASE_JWKS_URL =
  "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com";

export const FIREBASE_MESSAGES = {
  invalid: "Your sign-in could not be verified. Please try again.",
  noPhone: "Sign in with a US phone number.",
} as const;

export interface FirebaseVerifierOptions {
  projectId: string;
  now: () => Date;
  /** Tests pass a local key set; production fetches (and caches) Google's. */
  keySet?: JWTVerifyGetKey;
}

export type FirebaseTokenVerifier = (idToken: string) => Promise<{ phone: string }>;

/**
 * Verifies a Firebase ID token the way Firebase documents: RS256 signature
 * against Google's keys, issuer and audience of our project, not expired,
 * issued and authenticated in the past, a subject, and a phone number.
 */
export function createFirebaseVerifier(opts: FirebaseVerifierOptions): FirebaseTokenVerifier {
  const keys = opts.keySet ?? createRemoteJWKSet(new URL(FIREBASE_JWKS_URL));
  return async (idToken) => {
    const now = opts.now();
    let payload;
    try {
      ({ payload } = await jwtVerify(idToken, keys, {
        algorithms: ["RS256"],
        issuer: `https://securetoken.google.com/${opts.projectId}`,
        audience: opts.projectId,
        currentDate: now,
        requiredClaims: ["sub", "iat", "exp", "auth_time"],
      }));
    } catch {
      throw new AppError("UNAUTHORIZED", FIREBASE_MESSAGES.invalid);
    }
    const nowSeconds = now.getTime() / 1000;
    const authTime = payload.auth_time;
    if (typeof authTime !== "number" || authTime > nowSeconds || (payload.iat ?? Infinity) > nowSeconds) {
      throw new AppError("UNAUTHORIZED", FIREBASE_MESSAGES.invalid);
    }
    if (!payload.sub) throw new AppError("UNAUTHORIZED", FIREBASE_MESSAGES.invalid);
    const phone = E164PhoneSchema.safeParse(payload.phone_number);
    if (!phone.success) throw new AppError("UNAUTHORIZED", FIREBASE_MESSAGES.noPhone);
    return { phone: phone.data };
  };
}

import type { PublicConfig } from "@quad/contracts";
import { firebaseAuthDomain, type Config } from "../../env";

/**
 * What the web needs to know of the server's configuration, so one web build works with any:
 * which sign-in and payment providers, and their public keys. Nothing secret.
 */
export function publicConfig(c: Config, vapidPublicKey: string | null): PublicConfig {
  return {
    authProvider: c.AUTH_PROVIDER,
    firebase:
      c.AUTH_PROVIDER === "firebase"
        ? {
            apiKey: c.FIREBASE_API_KEY!,
            authDomain: firebaseAuthDomain(c),
            projectId: c.FIREBASE_PROJECT_ID!,
            ...(c.FIREBASE_APP_ID ? { appId: c.FIREBASE_APP_ID } : {}),
          }
        : null,
    paymentProvider: c.PAYMENT_PROVIDER,
    stripePublishableKey: c.PAYMENT_PROVIDER === "stripe" ? (c.STRIPE_PUBLISHABLE_KEY ?? null) : null,
    vapidPublicKey,
  };
}

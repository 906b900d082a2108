import { firebaseAuthDomain } from "../../env";
import { endpoint } from "../../trpc/endpoints";
import { router } from "../../trpc/init";

/** Lets one web build work with any server configuration. */
const publicConfig = endpoint("config.public").query(({ ctx }) => {
  const c = ctx.config;
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
    vapidPublicKey: ctx.push?.publicKey ?? null,
  };
});

export const configRouter = router({ public: publicConfig });
